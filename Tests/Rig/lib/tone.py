"""Makes a sine tone WAV file, or checks that a recorded WAV holds a tone of a given frequency and level.

Usage: tone.py make OUT.wav FREQ SECONDS [RATE] [CHANNELS]
       tone.py check IN.wav FREQ [TOLERANCE_PCT] [MIN_DBFS]
Standard library only (no numpy): frequency from zero crossings, level as RMS in dBFS over the loud part.
"""
import math
import struct
import sys
import wave


def make(path, freq, secs, rate=48000, channels=2):
    frames = bytearray()
    for i in range(int(secs * rate)):
        v = int(16383 * math.sin(2 * math.pi * freq * i / rate))
        frames += struct.pack("<h", v) * channels
    with wave.open(path, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))


def check(path, freq, tolerance_pct=3.0, min_dbfs=-20.0):
    with wave.open(path, "rb") as w:
        rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        raw = w.readframes(w.getnframes())
    if width != 2:
        sys.exit(f"tone: {path}: only 16-bit samples are supported")
    mono = struct.unpack(f"<{len(raw) // 2}h", raw)[::channels]
    # Keep the loud part: the 10 ms blocks whose peak exceeds a tenth of the loudest block.
    block = rate // 100
    blocks = [mono[i:i + block] for i in range(0, len(mono) - block + 1, block)]
    if not blocks:
        sys.exit(f"tone: {path}: recording is empty")
    peak = max(max(abs(s) for s in b) for b in blocks)
    loud = [s for b in blocks if max(abs(s) for s in b) > peak / 10 for s in b]
    if peak == 0 or len(loud) < rate // 10:
        sys.exit(f"tone: {path}: silence ({len(mono) / rate:.2f} s recorded, peak {peak})")
    rms = math.sqrt(sum(s * s for s in loud) / len(loud))
    dbfs = 20 * math.log10(rms / 32768)
    ups = sum(1 for a, b in zip(loud, loud[1:]) if a < 0 <= b)
    measured = ups * rate / len(loud)
    ok = abs(measured - freq) <= freq * tolerance_pct / 100 and dbfs >= min_dbfs
    print(f"tone: {path}: {measured:.1f} Hz (want {freq} +-{tolerance_pct}%), {dbfs:.1f} dBFS (want >= {min_dbfs}),"
          f" {len(loud) / rate:.2f} s loud of {len(mono) / rate:.2f} s")
    return ok


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "make":
        make(args[0], float(args[1]), float(args[2]), *(int(a) for a in args[3:5]))
    elif cmd == "check":
        sys.exit(0 if check(args[0], float(args[1]), *(float(a) for a in args[2:4])) else 1)
    else:
        sys.exit(__doc__)
