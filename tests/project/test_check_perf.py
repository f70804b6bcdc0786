#!/usr/bin/env python3
"""What tests/project/check_perf.py expects of each "caught_by": "perf" mutant
(without a GPU): the bound of a slow variant, the range of a calibration
variant, and that every lab's calibration shares follow the item's own scale."""
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader import lab_data  # each lab's rubric.json and mutants.json
from tests.project.check_perf import share_range
from tests.grader.perf import fraction, parse_scale
from tests.project import make_mutant

# The calibration variants and the ratio of the solves each is built to read.
CALIBRATIONS = {"calibration_solves_twice": 2.0, "calibration_solves_one_and_a_half": 1.5}


class ShareRange(unittest.TestCase):
    def test_a_slow_variant_earns_at_most_its_bound(self):
        self.assertEqual(share_range({"name": "m", "perf_share_at_most": 0.9}), (0.0, 0.9))

    def test_a_calibration_earns_its_expected_share_within_the_tolerance(self):
        low, high = share_range({"name": "m", "perf_share_expected": 0.58, "perf_share_tolerance": 0.1})
        self.assertAlmostEqual(low, 0.48)
        self.assertAlmostEqual(high, 0.68)
        self.assertEqual(share_range({"name": "m", "perf_share_expected": 0.95, "perf_share_tolerance": 0.1}),
                         (0.85, 1.0))
        both = share_range({"name": "m", "perf_share_expected": 0.58, "perf_share_tolerance": 0.1,
                            "perf_share_at_most": 0.6})
        self.assertAlmostEqual(both[1], 0.6)

    def test_a_mutant_without_a_usable_bound_is_refused_by_name(self):
        for mutant in ({"name": "m"}, {"name": "m", "perf_share_expected": 0.5},
                       {"name": "m", "perf_share_expected": 0.9, "perf_share_tolerance": 0.05,
                        "perf_share_at_most": 0.5}):
            with self.subTest(mutant=mutant), self.assertRaisesRegex(ValueError, "mutant m"):
                share_range(mutant)

    def test_every_perf_mutant_has_a_range_and_calibrations_follow_the_labs_scale(self):
        rubric = lab_data.load_rubric()
        for lab in (lab for lab in rubric if "perf" in rubric[lab]):
            scale = parse_scale(rubric[lab]["perf"])
            names = set()
            for mutant in lab_data.lab_mutants(lab):
                if mutant.get("caught_by") != "perf":
                    continue
                with self.subTest(lab=lab, mutant=mutant["name"]):
                    share_range(mutant)
                    if mutant["name"] in CALIBRATIONS:
                        names.add(mutant["name"])
                        # The scale's share of the ratio judged with the least noise the item assumes.
                        judged = CALIBRATIONS[mutant["name"]] / (1 + scale.noise_floor)
                        self.assertAlmostEqual(mutant["perf_share_expected"], fraction(judged, scale), delta=0.005)
            self.assertEqual(names, set(CALIBRATIONS), f"{lab}: every GPU lab has both calibrations")


class CalibrationSources(unittest.TestCase):
    def test_every_calibration_wraps_its_solvers_one_call_of_timed_run(self):
        # The variants scale what the item calls the solve (a call less what a
        # call that solves nothing costs), so each solver's run() goes through
        # calibration_timed_run: its one call of timed_run, after run()'s header.
        rubric = lab_data.load_rubric()
        for lab in (lab for lab in rubric if "perf" in rubric[lab]):
            for mutant in (m for m in lab_data.lab_mutants(lab) if "calibration" in m):
                with self.subTest(lab=lab, mutant=mutant["name"]):
                    files = make_mutant.mutate(lab, mutant["name"], str(REPO / "solutions" / lab))
                    self.assertIsNotNone(files, "make_mutant could not write it (see its message)")
                    for file, solver in mutant["solvers"].items():
                        text = files[file]
                        self.assertEqual(text.count("calibration_timed_run("), 1, f"{file}: defined once")
                        self.assertEqual(text.count("calibration_timed_run<"), 1, f"{file}: called once")
                        self.assertEqual(text.count("sssp::cuda::timed_run<"), 1, f"{file}: only inside the wrapper")
                        run = text.index(f"{solver}::run(")
                        self.assertLess(run, text.rindex("calibration_timed_run<"), f"{file}: called in run()")
                        self.assertIn(make_mutant.CALIBRATION_RUN_BODY[mutant["calibration"]].splitlines()[1],
                                      text[run:])

    def test_one_and_a_half_adds_no_host_synchronisation(self):
        # The worker blocks while it waits for the GPU, so a synchronisation the
        # variant added would add its wake-up to every call: lab 05's 1-2 ms
        # solves read 1.7x, not 1.5x, with one (eighth session, H200).
        added = make_mutant.CALIBRATION_DECLARATIONS["one_and_a_half"] + \
            make_mutant.CALIBRATION_AFTER_ALGORITHM["one_and_a_half"] + make_mutant.CALIBRATION_RUN_BODY["one_and_a_half"]
        for waits_on_the_host in ("Synchronize", "cudaMemcpy", "cudaEventQuery", "steady_clock"):
            self.assertNotIn(waits_on_the_host, added)
        self.assertIn("cudaStreamWaitEvent(stream", added, "the wait is ordered after the stamp on the GPU")


if __name__ == "__main__":
    unittest.main()
