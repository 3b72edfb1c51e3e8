// ExifCodec: builds and parses the EXIF APP1 payload; the only file that talks to libexif.

import BoothTime
import CExif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// EXIF <-> `ExifFields`, through libexif.
enum ExifCodec {
    /// The APP1 payload ("Exif\0\0" + TIFF) for `fields` on a `width` x `height` image.
    static func payload(for fields: ExifFields, width: Int, height: Int) throws(PhotoEncodingError) -> [UInt8] {
        try fields.validate()
        guard let data = exif_data_new(), let mem = exif_mem_new_default() else {
            throw .invalidExif("libexif could not allocate its data")
        }
        defer {
            exif_data_unref(data)
            exif_mem_unref(mem)
        }
        exif_data_set_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
        exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL)
        exif_data_fix(data)
        let order = exif_data_get_byte_order(data)
        guard let ifd0 = data.pointee.ifd.0, let exif = data.pointee.ifd.2 else {
            throw .invalidExif("libexif returned no IFDs")
        }
        let writer = EntryWriter(mem: mem, order: order)
        try writer.ascii(fields.make, tag: EXIF_TAG_MAKE, in: ifd0)
        try writer.ascii(fields.cameraModel, tag: EXIF_TAG_MODEL, in: ifd0)
        try writer.short(UInt16(fields.orientation), tag: EXIF_TAG_ORIENTATION, in: ifd0)
        if let dateTime = fields.dateTime {
            try writer.dateTime(dateTime, ifd0: ifd0, exif: exif)
        }
        try writer.long(UInt32(width), tag: EXIF_TAG_PIXEL_X_DIMENSION, in: exif)
        try writer.long(UInt32(height), tag: EXIF_TAG_PIXEL_Y_DIMENSION, in: exif)
        if let exposure = fields.exposureTime.map({ Int($0.inMicroseconds) }) {
            let divisor = gcd(exposure, 1_000_000)
            try writer.rational(
                ExifRational(numerator: ExifLong(exposure / divisor), denominator: ExifLong(1_000_000 / divisor)),
                tag: EXIF_TAG_EXPOSURE_TIME, in: exif)
        }
        if let gain = fields.analogueGain {
            try writer.short(UInt16((gain * 100).rounded()), tag: EXIF_TAG_ISO_SPEED_RATINGS, in: exif)
        }
        return try saved(data)
    }

    /// The booth's fields from an APP1 payload, or nil if it holds no EXIF.
    static func fields(fromPayload payload: [UInt8]) -> ExifFields? {
        let loaded = payload.withUnsafeBufferPointer { exif_data_new_from_data($0.baseAddress, UInt32($0.count)) }
        guard let data = loaded else { return nil }
        defer { exif_data_unref(data) }
        let order = exif_data_get_byte_order(data)
        let reader = EntryReader(ifd0: data.pointee.ifd.0, exif: data.pointee.ifd.2, order: order)
        guard let model = reader.ascii(EXIF_TAG_MODEL) else { return nil }
        return ExifFields(
            dateTime: reader.ascii(EXIF_TAG_DATE_TIME),
            cameraModel: model,
            make: reader.ascii(EXIF_TAG_MAKE) ?? "",
            orientation: reader.short(EXIF_TAG_ORIENTATION).map(Int.init) ?? 1,
            exposureTime: reader.rational(EXIF_TAG_EXPOSURE_TIME).flatMap { value in
                value.denominator == 0
                    ? nil
                    : .microseconds(Int64((Double(value.numerator) * 1_000_000 / Double(value.denominator)).rounded()))
            },
            analogueGain: reader.short(EXIF_TAG_ISO_SPEED_RATINGS).map { Double($0) / 100 })
    }

    /// The APP1 payload `payload` with its DateTime, DateTimeOriginal and DateTimeDigitized set to `dateTime`
    /// (validated by the caller), every other entry as it was; nil when libexif cannot read it as EXIF.
    static func redated(payload: [UInt8], dateTime: String) throws(PhotoEncodingError) -> [UInt8]? {
        let loaded = payload.withUnsafeBufferPointer { exif_data_new_from_data($0.baseAddress, UInt32($0.count)) }
        guard let data = loaded else { return nil }
        defer { exif_data_unref(data) }
        guard let mem = exif_mem_new_default() else { throw .invalidExif("libexif could not allocate its data") }
        defer { exif_mem_unref(mem) }
        guard let ifd0 = data.pointee.ifd.0, let exif = data.pointee.ifd.2,
            exif_content_get_entry(ifd0, EXIF_TAG_MODEL) != nil
        else { return nil }
        let writer = EntryWriter(mem: mem, order: exif_data_get_byte_order(data))
        try writer.dateTime(dateTime, ifd0: ifd0, exif: exif)
        return try saved(data)
    }

    /// `data` as an APP1 payload, at most 65533 bytes (what one JPEG segment holds).
    private static func saved(_ data: UnsafeMutablePointer<ExifData>) throws(PhotoEncodingError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var length: UInt32 = 0
        exif_data_save_data(data, &buffer, &length)
        guard let buffer else { throw .invalidExif("libexif could not serialize the EXIF block") }
        defer { free(buffer) }
        guard length <= 65533 else { throw .invalidExif("EXIF block of \(length) bytes exceeds 65533") }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

/// Replaces entries in an IFD with freshly allocated ones.
private struct EntryWriter {
    let mem: OpaquePointer
    let order: ExifByteOrder

    func ascii(_ text: String, tag: ExifTag, in ifd: UnsafeMutablePointer<ExifContent>) throws(PhotoEncodingError) {
        let bytes = Array(text.utf8) + [0]
        try put(tag, format: EXIF_FORMAT_ASCII, components: bytes.count, in: ifd) { data in
            data.initialize(from: bytes, count: bytes.count)
        }
    }

    /// The capture time as DateTime (IFD0), DateTimeOriginal and DateTimeDigitized (the EXIF IFD).
    func dateTime(
        _ text: String, ifd0: UnsafeMutablePointer<ExifContent>, exif: UnsafeMutablePointer<ExifContent>
    ) throws(PhotoEncodingError) {
        try ascii(text, tag: EXIF_TAG_DATE_TIME, in: ifd0)
        try ascii(text, tag: EXIF_TAG_DATE_TIME_ORIGINAL, in: exif)
        try ascii(text, tag: EXIF_TAG_DATE_TIME_DIGITIZED, in: exif)
    }

    func short(_ value: UInt16, tag: ExifTag, in ifd: UnsafeMutablePointer<ExifContent>) throws(PhotoEncodingError) {
        try put(tag, format: EXIF_FORMAT_SHORT, components: 1, in: ifd) { exif_set_short($0, order, value) }
    }

    func long(_ value: UInt32, tag: ExifTag, in ifd: UnsafeMutablePointer<ExifContent>) throws(PhotoEncodingError) {
        try put(tag, format: EXIF_FORMAT_LONG, components: 1, in: ifd) { exif_set_long($0, order, ExifLong(value)) }
    }

    func rational(
        _ value: ExifRational, tag: ExifTag, in ifd: UnsafeMutablePointer<ExifContent>
    )
        throws(PhotoEncodingError)
    {
        try put(tag, format: EXIF_FORMAT_RATIONAL, components: 1, in: ifd) { exif_set_rational($0, order, value) }
    }

    private func put(
        _ tag: ExifTag, format: ExifFormat, components: Int, in ifd: UnsafeMutablePointer<ExifContent>,
        fill: (UnsafeMutablePointer<UInt8>) -> Void
    ) throws(PhotoEncodingError) {
        if let old = exif_content_get_entry(ifd, tag) {
            exif_content_remove_entry(ifd, old)
        }
        let size = Int(exif_format_get_size(format)) * components
        guard let entry = exif_entry_new_mem(mem) else { throw .invalidExif("libexif could not allocate an entry") }
        defer { exif_entry_unref(entry) }
        guard let raw = exif_mem_alloc(mem, ExifLong(size)) else {
            throw .invalidExif("libexif could not allocate \(size) bytes")
        }
        let data = raw.assumingMemoryBound(to: UInt8.self)
        fill(data)
        entry.pointee.tag = tag
        entry.pointee.format = format
        entry.pointee.components = UInt(components)
        entry.pointee.size = UInt32(size)
        entry.pointee.data = data
        exif_content_add_entry(ifd, entry)
    }
}

/// Reads typed values out of IFD0 and the EXIF IFD.
private struct EntryReader {
    let ifd0: UnsafeMutablePointer<ExifContent>?
    let exif: UnsafeMutablePointer<ExifContent>?
    let order: ExifByteOrder

    private func entry(_ tag: ExifTag, format: ExifFormat) -> UnsafeMutablePointer<ExifEntry>? {
        for ifd in [ifd0, exif] {
            if let ifd, let found = exif_content_get_entry(ifd, tag), found.pointee.format == format,
                found.pointee.data != nil, found.pointee.components > 0
            {
                return found
            }
        }
        return nil
    }

    func ascii(_ tag: ExifTag) -> String? {
        guard let found = entry(tag, format: EXIF_FORMAT_ASCII) else { return nil }
        let bytes = UnsafeBufferPointer(start: found.pointee.data, count: Int(found.pointee.size))
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    func short(_ tag: ExifTag) -> UInt16? {
        entry(tag, format: EXIF_FORMAT_SHORT).map { exif_get_short($0.pointee.data, order) }
    }

    func rational(_ tag: ExifTag) -> ExifRational? {
        entry(tag, format: EXIF_FORMAT_RATIONAL).map { exif_get_rational($0.pointee.data, order) }
    }
}
