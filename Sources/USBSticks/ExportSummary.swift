// ExportSummary: what a finished export did.
import BoothCore
import BoothSystem

/// A finished export: every kept photo of this booth is on the stick, complete and verified (except
/// those `skipped`).
public struct ExportSummary: Sendable {
    /// The stick's id (from its manifest).
    public var stickID: String
    /// Photos copied now.
    public var copied: Int
    /// Photos found on the stick without a manifest record (an interrupted export or a rebuilt
    /// manifest), verified against the booth's copy and recorded.
    public var adopted: Int
    /// Photos already on the stick before.
    public var alreadyThere: Int
    /// Photos that cannot go on this stick, with the reason.
    public var skipped: [ExportPlan.Skip]
    /// Bytes copied.
    public var bytes: Int64
    /// Whether the manifest was damaged and rebuilt from the files.
    public var manifestRebuilt: Bool
    /// Whether the stick was unmounted (safe to remove).
    public var unmounted: Bool
    /// Why unmounting failed (EBUSY: a program has a file open there; EPERM: the booth may not unmount).
    public var unmountError: SystemError?
    /// Print layouts copied now, or found there and verified (they are in the export folder's `layouts/`).
    public var layouts = 0
    /// Print layouts already on the stick before.
    public var layoutsAlreadyThere = 0
    /// Companions (the camera's RAWs, `export.raw`) copied now, or found there and verified (beside their photos).
    public var raw = 0
    /// Companions (RAWs) already on the stick before.
    public var rawAlreadyThere = 0
    /// Whether the join card was copied now (the stick had none, or an older one).
    public var joinCardCopied = false

    /// Counts `item` as on the stick now: a print layout, a RAW, or a photo (`adopted`: found there and verified,
    /// else copied).
    mutating func count(_ item: ExportPlan.Item, adopted: Bool) {
        if item.isLayout {
            layouts += 1
        } else if item.isCompanion {
            raw += 1
        } else if adopted {
            self.adopted += 1
        } else {
            copied += 1
        }
    }
}
