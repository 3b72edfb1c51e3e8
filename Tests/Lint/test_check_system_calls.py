"""scripts/check-system-calls: the C library's file calls found outside BoothSystem, methods of the same names not."""
import importlib.machinery
import importlib.util
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "check-system-calls")
loader = importlib.machinery.SourceFileLoader("check_system_calls", SCRIPT)
spec = importlib.util.spec_from_loader("check_system_calls", loader)
check = importlib.util.module_from_spec(spec)
loader.exec_module(check)


class CheckSystemCallsTest(unittest.TestCase):
    def findings(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".swift", delete=False) as file:
            file.write(text)
        try:
            return [(number, function) for number, function, _ in check.findings(file.name)]
        finally:
            os.unlink(file.name)

    def test_the_c_librarys_calls_are_found(self):
        text = "\n".join([
            'let fd = open("\\(folder)/a", O_RDONLY | O_CLOEXEC)',
            "defer { close(fd) }",
            "let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }",
            "guard lstat(path, &info) == 0 else { return }",
            "_ = Glibc.unlink(temporary)",
            "usleep(1000)",
            'if rename(a, b) != 0, access(c, F_OK) == 0 {}',
        ])
        self.assertEqual(
            self.findings(text),
            [(1, "open"), (2, "close"), (3, "write"), (4, "lstat"), (5, "unlink"), (6, "usleep"), (7, "rename"),
             (7, "access")])

    def test_errno_read_alone_is_found(self):
        text = "\n".join([
            "if errno == ENOENT { continue }",
            "let code = Glibc.errno",
            "func fail(_ operation: String, _ code: Int32 = errno) -> ExportError {",
        ])
        self.assertEqual(self.findings(text), [(1, "errno"), (2, "errno"), (3, "errno")])

    def test_errno_as_a_member_or_a_label_is_not(self):
        text = "\n".join([
            "if error.errno == ENOENT { return }",
            "throw SystemError(\"open\", path, errno: code)",
            "case unreadable(operation: String, errno: Int32)",
            "init(_ operation: Operation, _ path: String, errno code: Int32) {",
            "// errno in a comment",
            "let text = \"errno \\(code)\"",
        ])
        self.assertEqual(self.findings(text), [])

    def test_methods_declarations_comments_and_a_stat_value_are_not(self):
        text = "\n".join([
            "let problem = open()",
            "try write(bytes, to: path, mode: 0o644)",
            'static func error(_ message: String) { write(line("error", priority: 3)) }',
            "read(sources, next: loop.now(), on: loop)",
            "func open(_ path: String, _ flags: Int32) -> Int32",
            "var info = stat()",
            "let fd = ops.open(path, O_RDONLY, 0)",
            "// close(fd) in a comment",
            "    /// unlink(path) in a doc comment",
            'let text = "close(fd)"',
        ])
        self.assertEqual(self.findings(text), [])


if __name__ == "__main__":
    unittest.main()
