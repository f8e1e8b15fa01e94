import KernelIO

/// The package root, from this file's path (Tests/ButtonsTests/TestFiles.swift).
func packageRoot(_ file: String = #filePath) -> String {
    var parts = file.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}

func readText(_ path: String) -> String? { try? WholeFile.text(path) }
