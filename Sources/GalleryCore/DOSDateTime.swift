// DOSDateTime: a ZIP header's date and time fields (MS-DOS format, local wall-clock time, 2-second steps).

/// The date and time fields of a ZIP header (APPNOTE 4.4.6): wall-clock time in two 16-bit words, seconds halved.
/// They hold 1980-01-01 00:00:00 through 2107-12-31 23:59:58; a time outside is clamped to the nearest end.
struct DOSDateTime: Hashable, Sendable {
    /// `hour << 11 | minute << 5 | second / 2`.
    var time: UInt16
    /// `(year - 1980) << 9 | month << 5 | day`.
    var date: UInt16

    /// The fields as they are.
    init(time: UInt16, date: UInt16) { (self.time, self.date) = (time, date) }

    /// The fields for `seconds` since 1970-01-01 UTC in a time zone `utcOffset` seconds east of UTC.
    init(seconds: Int64, utcOffset: Int) {
        // Far outside the range either way: clamped below, and no overflow in the sums.
        let limit: Int64 = 1 << 40
        let local = min(max(seconds, -limit), limit) + min(max(Int64(utcOffset), -limit), limit)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        let (year, month, day) = Self.civil(days: days)
        if year < 1980 {
            (time, date) = (0, 1 << 5 | 1)
        } else if year > 2107 {
            (time, date) = (23 << 11 | 59 << 5 | 29, 127 << 9 | 12 << 5 | 31)
        } else {
            let (hour, minute, second) = (secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
            time = UInt16(hour << 11 | minute << 5 | second / 2)
            date = UInt16((year - 1980) << 9 | month << 5 | day)
        }
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (negative: before). Counts in 400-year eras of
    /// 146,097 days, with years starting on March 1st so the leap day ends a year.
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097  // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from March 1st
        let monthFromMarch = (5 * dayOfYear + 2) / 153  // 0...11
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
