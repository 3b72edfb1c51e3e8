// StickExporter+Claims: the manifest's claims read back, against the stick's files and the booth's own photos.
import BoothCore
import BoothSystem
import Checksum
import Glibc
import PhotoModel
import PhotoStore

extension ExportRun {
    /// The manifest's entries for this booth's kept photos, read back: `verified`, by path, those whose file on
    /// the stick holds that very photo (its size, CRC-32 and SHA-256 are the manifest's and the booth's own
    /// file's: a CRC-32 can be forged, a SHA-256 cannot); `unverified` those whose file does not (a crafted or
    /// stale manifest, a file replaced since). "Already on this stick" means the content is there, so each
    /// claimed photo is read back once per insert, and the booth's own photo once with it; the plan then sees an
    /// unverified file as a stranger's and copies the photo beside it. An entry whose file is missing or of
    /// another size is in neither (the plan drops it).
    func checkClaims(
        kept: [PhotoIndex.Entry], layouts: [PhotoStore.Layout], companions: [PhotoStore.CompanionFile],
        present: [String: Int64]
    ) throws(ExportError) -> (verified: [String: ContentDigest], unverified: Set<String>) {
        var saved = Dictionary(kept.map { ($0.name, $0.checksum) }) { first, _ in first }
        // A layout's or a companion's claim is read back as a photo's whose checksum the index does not know (a
        // companion's bytes are never rewritten: its copy must be the file in the store).
        for layout in layouts { saved[layout.name] = .some(nil) }
        for companion in companions { saved[companion.name] = .some(nil) }
        // FAT is case-insensitive: a claim names the file in any case; open it by its listed name.
        let listed = Dictionary(present.keys.map { ($0.lowercased(), $0) }) { first, _ in first }
        var verified: [String: ContentDigest] = [:]
        var unverified: Set<String> = []
        for entry in manifest.entries where entry.booth == store.boothID {
            guard let expected = saved[entry.source] else { continue }  // not kept: never planned
            guard let path = listed[entry.path.lowercased()], present[path] == entry.size else { continue }
            try stopIfAsked()
            let parts = path.split(separator: "/")
            let folder = try dateDirectory(String(parts[0]))
            let there = try failing { () throws(SystemError) in
                try copier.stickDigest(of: String(parts[1]), in: folder, path: "\(exportPath)/\(path)")
            }
            // A dated copy's checksum is not the photo's: it is checked against the photo read below.
            let redated = redatings[entry.source]
            guard entry.matches(there), expected == nil || expected == entry.checksum || redated != nil else {
                unverified.insert(entry.path)
                continue
            }
            let sourcePath = "\(store.directory)/\(ExportPlan.storePath(of: entry.source))"
            let source: FileDescriptor
            do throws(SystemError) {
                source = try SystemError.check("open", sourcePath) {
                    ops.open(sourcePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
                }
            } catch let error where error.code == .noSuchFileOrDirectory {
                continue  // discarded since the listing: never planned
            } catch {
                throw fail(error)
            }
            defer { _ = ops.close(source) }
            do throws(SystemError) {
                let ours = try DurableFile.digest(of: source, path: sourcePath, operations: ops)
                // The stick holds the photo itself, or (a photo saved undated and dated since) its dated copy.
                let unchanged = expected == nil || expected == ours.crc32
                var holds = there == ours && unchanged
                if !holds, unchanged, let redated {
                    holds =
                        there
                        == (try DurableFile.digest(of: redated.contents(source, path: sourcePath), operations: ops))
                    if holds { sourceChecksums[entry.source] = ours.crc32 }
                }
                if holds {
                    verified[entry.path] = there
                } else {
                    unverified.insert(entry.path)
                }
            } catch {
                throw ExportError(.failed(error), done: done, total: total)
            }
        }
        return (verified, unverified)
    }
}
