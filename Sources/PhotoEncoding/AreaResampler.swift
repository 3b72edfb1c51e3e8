// AreaResampler: shrinks packed RGB24 pixels by averaging the area each output pixel covers.

/// A box (area-average) filter for shrinking an image by any ratio.
///
/// Each output pixel is the mean of the source area it covers, with source pixels cut by the
/// area's edges weighted by the part inside, so no source pixel is skipped and none counts twice.
/// Separable (rows, then columns), in fixed point: weights are 14-bit fractions that sum to exactly
/// one per output pixel, and the pass between keeps 8 bits below the byte, so no division runs per
/// pixel and every sum stays in 32 bits.
enum AreaResampler {
    /// `frame` (packed RGB24) resized to `width` x `height`; returned as is when the size already matches.
    static func resized(_ frame: PixelFrame, width: Int, height: Int) -> PixelFrame {
        guard width != frame.width || height != frame.height else { return frame }
        let across = horizontalPass(frame, to: width, Taps(from: frame.width, to: width))
        let rows = Taps(from: frame.height, to: height)
        let rowBytes = width * 3
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        var sums = [UInt32](repeating: 0, count: rowBytes)
        across.withUnsafeBufferPointer { input in
            bytes.withUnsafeMutableBufferPointer { out in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<height {
                        sums.update(repeating: 0)
                        var row = rows.first[y] &* rowBytes
                        for tap in rows.start[y]..<rows.start[y &+ 1] {
                            let weight = UInt32(rows.weights[tap])
                            for i in 0..<rowBytes { sums[i] &+= UInt32(input[row &+ i]) &* weight }
                            row &+= rowBytes
                        }
                        let to = y &* rowBytes
                        for i in 0..<rowBytes {
                            out[to &+ i] = UInt8(truncatingIfNeeded: (sums[i] &+ Taps.half << 8) >> (Taps.bits + 8))
                        }
                    }
                }
            }
        }
        return PixelFrame(
            width: width, height: height, format: .rgb24, planes: [PixelPlane(bytes: bytes, stride: rowBytes)])
    }

    /// Pass 1: each row of `frame` to `width` pixels, with 8 bits below the byte (0...65280).
    private static func horizontalPass(_ frame: PixelFrame, to width: Int, _ columns: Taps) -> [UInt16] {
        let rowBytes = width * 3
        let stride = frame.planes[0].stride
        var across = [UInt16](repeating: 0, count: rowBytes * frame.height)
        frame.planes[0].bytes.withUnsafeBufferPointer { input in
            across.withUnsafeMutableBufferPointer { out in
                for y in 0..<frame.height {
                    let row = y &* stride
                    let to = y &* rowBytes
                    for x in 0..<width {
                        var (red, green, blue): (UInt32, UInt32, UInt32) = (0, 0, 0)
                        var at = row &+ columns.first[x] &* 3
                        for tap in columns.start[x]..<columns.start[x &+ 1] {
                            let weight = UInt32(columns.weights[tap])
                            red &+= UInt32(input[at]) &* weight
                            green &+= UInt32(input[at &+ 1]) &* weight
                            blue &+= UInt32(input[at &+ 2]) &* weight
                            at &+= 3
                        }
                        let shift = UInt32(Taps.bits - 8)
                        let round = UInt32(1) << (shift - 1)
                        out[to &+ x &* 3] = UInt16(truncatingIfNeeded: (red &+ round) >> shift)
                        out[to &+ x &* 3 &+ 1] = UInt16(truncatingIfNeeded: (green &+ round) >> shift)
                        out[to &+ x &* 3 &+ 2] = UInt16(truncatingIfNeeded: (blue &+ round) >> shift)
                    }
                }
            }
        }
        return across
    }

    /// Which input pixels each output pixel covers along one axis, and how much of each.
    ///
    /// Measured in 1/`outputs` of an input pixel, output `i` covers [i x inputs, (i + 1) x inputs) and
    /// input `s` covers [s x outputs, (s + 1) x outputs); a weight is their overlap as a fraction of
    /// `inputs`, in units of 1/2^14, rounded so that one output's weights sum to exactly 2^14.
    struct Taps {
        /// Weights are fractions of 1 << bits.
        static let bits = 14
        /// Half of one in weight units, for rounding.
        static let half = UInt32(1) << (bits - 1)

        /// The first input pixel each output covers.
        var first: [Int] = []
        /// Where each output's weights start in `weights`; one more entry ends the last output's.
        var start: [Int] = [0]
        /// Weights of consecutive input pixels from `first[i]`, output after output.
        var weights: [UInt16] = []

        init(from inputs: Int, to outputs: Int) {
            let one = 1 << Self.bits
            for i in 0..<outputs {
                let (low, high) = (i * inputs, (i + 1) * inputs)
                first.append(low / outputs)
                var covered = 0
                var given = 0
                for source in low / outputs...(high - 1) / outputs {
                    covered += min(high, (source + 1) * outputs) - max(low, source * outputs)
                    // Rounding the running total keeps the sum exact whatever the rounding of each part.
                    let total = (covered * one + inputs / 2) / inputs
                    weights.append(UInt16(total - given))
                    given = total
                }
                start.append(weights.count)
            }
        }

        /// The weights of output `i`.
        func weights(of i: Int) -> ArraySlice<UInt16> { weights[start[i]..<start[i + 1]] }
    }
}
