#!/usr/bin/env python3
"""The points a handout states are the rubric's: each lab's README says what
its autograded total is, what the speed item is worth, and, where the lab
has written questions, what they add; questions.md states its own total
twice (the table and the opening). A rubric change that leaves a handout
behind (lab 09's task 9 moved its totals twice in one day) fails here.

    python3 -m tests.project.test_handout_points
"""
import json
import re
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader import lab_data  # which labs the course has


def rubric_total(lab: str) -> float:
    """The autograder's maximum for a lab: its tests, its speed and its sanitizer items."""
    entry = json.loads((REPO / "tests" / lab / "rubric.json").read_text())
    return (sum(e["points"] for e in entry["tests"].values()) + entry.get("perf", {}).get("points", 0)
            + entry.get("sanitizer", {}).get("points", 0))


def bold_row(text: str, label: str) -> float | None:
    """The number of a table row `| **label** | ... | **N** |`, or None."""
    found = re.findall(r"^\| \*\*" + re.escape(label) + r"\*\* \|.*\| \*\*(\d+(?:\.\d+)?)\*\* \|$", text, re.M)
    return float(found[-1]) if found else None


def flat(text: str) -> str:
    return " ".join(text.split())


class HandoutPoints(unittest.TestCase):
    def test_every_handout_states_its_rubrics_total(self):
        for lab in lab_data.course_labs():
            with self.subTest(lab=lab):
                readme = (REPO / "labs" / lab / "README.md").read_text()
                total = rubric_total(lab)
                autograded = bold_row(readme, "total, autograded")
                if autograded is None:
                    stated = bold_row(readme, "total")
                    if stated is None:
                        found = re.search(r"rubric\.json` gives (\d+) points", flat(readme))
                        stated = float(found.group(1)) if found else None
                    self.assertEqual(stated, total, f"{lab}: the handout's total against tests/{lab}/rubric.json")
                    continue
                self.assertEqual(autograded, total, f"{lab}: the handout's autograded total against the rubric")
                written = re.search(r"^\| written questions \(graded by hand\) \|.*\| (\d+) \|$", readme, re.M)
                self.assertIsNotNone(written, f"{lab}: an autograded total, and no written-questions row")
                self.assertEqual(bold_row(readme, "total"), total + float(written.group(1)),
                                 f"{lab}: the grand total is the autograded one plus the written questions")

    def test_written_questions_state_one_total(self):
        for lab in lab_data.course_labs():
            questions = REPO / "labs" / lab / "questions.md"
            if not questions.exists():
                continue
            with self.subTest(lab=lab):
                text = questions.read_text()
                table = re.findall(r"^\| \d+ \| .* \| (\d+) \|$", text, re.M)
                stated = bold_row(text, "total")
                self.assertEqual(sum(float(x) for x in table), stated, f"{lab}: questions.md's rows against its total")
                opening = re.search(r"Graded by hand, (\d+) points, besides the (\d+) the", flat(text))
                self.assertIsNotNone(opening, f"{lab}: questions.md says what it is worth in its opening")
                self.assertEqual(float(opening.group(1)), stated, f"{lab}: questions.md's opening against its table")
                self.assertEqual(float(opening.group(2)), rubric_total(lab),
                                 f"{lab}: questions.md's autograded points against the rubric")
                readme = (REPO / "labs" / lab / "README.md").read_text()
                written = re.search(r"^\| written questions \(graded by hand\) \|.*\| (\d+) \|$", readme, re.M)
                self.assertEqual(float(written.group(1)), stated, f"{lab}: the handout's written points")

    def test_the_speed_item_is_stated_at_its_points(self):
        for lab in lab_data.course_labs():
            entry = json.loads((REPO / "tests" / lab / "rubric.json").read_text())
            if "perf" not in entry:
                continue
            with self.subTest(lab=lab):
                readme = (REPO / "labs" / lab / "README.md").read_text()
                points = entry["perf"]["points"]
                said = re.findall(r"\*\*Speed \((\d+) points\)\.\*\*", readme)
                self.assertEqual([float(x) for x in said], [float(points)], f"{lab}: the handout's speed item")
                row = re.findall(r"^\| speed \(performance item\) \|.*\| (\d+) \|$", readme, re.M)
                self.assertTrue(all(float(x) == points for x in row), f"{lab}: the speed row of the points table")


if __name__ == "__main__":
    unittest.main()
