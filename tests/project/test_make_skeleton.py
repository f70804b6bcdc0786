#!/usr/bin/env python3
"""Tests of common/tools/make_skeleton.py: region handling, that it never
clobbers a student's edits without --force, and that --check tells a stale
skeleton from a student's edits."""
import contextlib
import io
import sys
import tempfile
import unittest
from pathlib import Path

from common.tools import make_skeleton

SOLUTION = """#include "x.hpp"
int f(int a) {
  // BEGIN SOLUTION task 3: add one
  return a + 1;
  // END SOLUTION
}
int g() {
  // BEGIN SOLUTION task 4: custom start
  return 7;
  // SKELETON
  // int answer = 0;  // your code
  // SSSP_TODO(2, 4, "custom start");
  // END SOLUTION
}
"""


class Derive(unittest.TestCase):
    def test_default_region_becomes_todo(self):
        out = make_skeleton.derive(SOLUTION, 2, "solutions/lab02_x/f.cpp")
        self.assertIn('  SSSP_TODO(2, 3, "add one");\n', out)
        self.assertNotIn("return a + 1", out)
        self.assertIn("generated from solutions/lab02_x/f.cpp", out)

    def test_skeleton_block_is_uncommented(self):
        out = make_skeleton.derive(SOLUTION, 2, "f.cpp")
        self.assertIn("  int answer = 0;  // your code\n", out)
        self.assertIn('  SSSP_TODO(2, 4, "custom start");\n', out)
        self.assertNotIn("return 7", out)

    def test_skeleton_preprocessor_lines_go_to_column_0(self):
        # As clang-format writes them (.clang-format): the skeleton is generated formatted.
        text = ("int h() {\n  // BEGIN SOLUTION task 1: x\n  return 1;\n  // SKELETON\n  // #if defined(A)\n"
                "  // return 0;\n  // #else\n  // SSSP_TODO(2, 1, \"x\");\n  // #endif\n  // END SOLUTION\n}\n")
        out = make_skeleton.derive(text, 2, "f.cpp")
        self.assertIn('#if defined(A)\n  return 0;\n#else\n  SSSP_TODO(2, 1, "x");\n#endif\n}\n', out)

    def test_file_without_regions_is_copied(self):
        self.assertEqual(make_skeleton.derive("int x;\n", 1, "h.hpp"), "int x;\n")

    def test_malformed_regions_are_errors(self):
        bad = {
            "unterminated": "// BEGIN SOLUTION task 1: x\nint a;\n",
            "nested": "// BEGIN SOLUTION task 1: x\n// BEGIN SOLUTION task 2: y\n// END SOLUTION\n",
            "stray end": "int a;\n// END SOLUTION\n",
            "no title": "// BEGIN SOLUTION task 1\n// END SOLUTION\n",
            "skeleton without todo": "// BEGIN SOLUTION task 1: x\n// SKELETON\n// int a;\n// END SOLUTION\n",
        }
        for what, text in bad.items():
            with self.subTest(what), self.assertRaises(make_skeleton.MarkerError):
                make_skeleton.derive(text, 1, "f.cpp")


class Generate(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        (root / "solutions" / "lab02_x").mkdir(parents=True)
        (root / "solutions" / "lab02_x" / "f.cpp").write_text(SOLUTION)
        (root / "labs" / "lab02_x").mkdir(parents=True)
        (root / "labs" / "lab02_x" / "README.md").write_text("handout\n")
        self.saved = make_skeleton.REPO
        make_skeleton.REPO = root
        self.student_file = root / "labs" / "lab02_x" / "f.cpp"

    def tearDown(self):
        make_skeleton.REPO = self.saved
        self.tmp.cleanup()

    def test_generate_then_in_sync(self):
        self.assertEqual(make_skeleton.generate("lab02_x", force=False), [])
        self.assertEqual(make_skeleton.check("lab02_x"), ([], []))

    def test_student_edit_is_never_overwritten_without_force(self):
        make_skeleton.generate("lab02_x", force=False)
        self.student_file.write_text("// my work\n")
        self.assertEqual(make_skeleton.generate("lab02_x", force=False), ["labs/lab02_x/f.cpp"])
        self.assertEqual(self.student_file.read_text(), "// my work\n")
        self.assertEqual(make_skeleton.check("lab02_x"), ([], ["labs/lab02_x/f.cpp"]),
                         "an edited skeleton is a student's work: reported, not a problem")
        self.assertEqual(make_skeleton.generate("lab02_x", force=True), [])
        self.assertIn("SSSP_TODO", self.student_file.read_text())

    def test_untouched_skeleton_follows_solution_changes(self):
        make_skeleton.generate("lab02_x", force=False)
        solution = make_skeleton.REPO / "solutions" / "lab02_x" / "f.cpp"
        solution.write_text(SOLUTION.replace("add one", "add exactly one"))
        problems, edited = make_skeleton.check("lab02_x")
        self.assertEqual(edited, [], "a file as generated is stale, not edited")
        self.assertIn("stale", " ".join(problems))
        self.assertEqual(make_skeleton.generate("lab02_x", force=False), [])
        self.assertIn("add exactly one", self.student_file.read_text())

    def test_file_without_solution_is_reported(self):
        make_skeleton.generate("lab02_x", force=False)
        (make_skeleton.REPO / "labs" / "lab02_x" / "extra.cpp").write_text("int y;\n")
        self.assertEqual(make_skeleton.check("lab02_x"), ([], ["labs/lab02_x/extra.cpp"]),
                         "a file the tool never wrote is a student's")
        (make_skeleton.REPO / "solutions" / "lab02_x" / "g.cpp").write_text("int g;\n")
        make_skeleton.generate("lab02_x", force=False)
        (make_skeleton.REPO / "solutions" / "lab02_x" / "g.cpp").unlink()
        self.assertIn("labs/lab02_x/g.cpp: stale", " ".join(make_skeleton.check("lab02_x")[0]),
                      "a generated file whose solution is gone is stale")

    def test_file_whose_solution_is_gone_is_removed_with_its_entry(self):
        gone = make_skeleton.REPO / "solutions" / "lab02_x" / "g.cpp"
        gone.write_text("int g;\n")
        make_skeleton.generate("lab02_x", force=False)
        gone.unlink()
        student_g = make_skeleton.REPO / "labs" / "lab02_x" / "g.cpp"
        student_g.unlink()
        self.assertIn("entry for g.cpp, which is gone, is stale", " ".join(make_skeleton.check("lab02_x")[0]))
        self.assertEqual(make_skeleton.generate("lab02_x", force=False), [])
        self.assertEqual(make_skeleton.check("lab02_x"), ([], []))
        gone.write_text("int g;\n")
        make_skeleton.generate("lab02_x", force=False)
        gone.unlink()
        self.assertEqual(make_skeleton.generate("lab02_x", force=False), [])
        self.assertFalse(student_g.exists(), "an untouched generated file of a removed solution file is removed")
        gone.write_text("int g;\n")
        make_skeleton.generate("lab02_x", force=False)
        gone.unlink()
        student_g.write_text("// my work\n")
        self.assertEqual(make_skeleton.generate("lab02_x", force=False), ["labs/lab02_x/g.cpp"])
        self.assertEqual(student_g.read_text(), "// my work\n", "a student's edit is never removed")

    def test_check_command_tells_edits_from_stale_files(self):
        make_skeleton.generate("lab02_x", force=False)
        self.student_file.write_text("// my work\n")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(make_skeleton.main(["--check", "lab02_x"]), 0)
        self.assertIn("labs/lab02_x/f.cpp was edited by hand (student work?): not checked", out.getvalue())
        self.assertEqual(err.getvalue(), "")
        self.student_file.unlink()
        make_skeleton.generate("lab02_x", force=False)
        solution = make_skeleton.REPO / "solutions" / "lab02_x" / "f.cpp"
        solution.write_text(SOLUTION.replace("add one", "add exactly one"))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(make_skeleton.main(["--check", "lab02_x"]), 1)
        self.assertIn("labs/lab02_x/f.cpp: stale", err.getvalue())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
