// LocalPhotoTime: seconds since 1970 as a photo's date and time in the booth's time zone.
import BoothSystem
import PhotoModel

extension PhotoName.DateTime {
    /// `seconds` since 1970 (UTC) as a date and time in the local time zone (`TZ`, /etc/localtime): how photos
    /// are named, and how the phone's dates of undated photos are shown and filed.
    public init(localSeconds seconds: Int64) {
        let local = WallTime(seconds: seconds, local: true)
        self.init(
            year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute,
            second: local.second)
    }
}
