// FilePath: swift-system's path type, and the folder and name the booth takes a path apart into.
import SystemPackage

/// A path, swift-system's type: what a path given as a string is taken apart with, in one place, where the booth
/// needs the folder a file is in (to write beside it, to watch it) or the file's name (to show or check it).
public typealias FilePath = SystemPackage.FilePath

extension FilePath {
    /// The folder the path names a file in: "/a" of "/a/b.jpg", "/" of "/b.jpg", "." of "b.jpg".
    public var folder: String {
        let parent = removingLastComponent()
        return parent.isEmpty ? "." : parent.string
    }

    /// The file's name, the path's last component: "b.jpg" of "/a/b.jpg" and of "b.jpg"; "" of "/".
    public var name: String { lastComponent?.string ?? "" }
}
