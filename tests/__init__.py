"""The course's tests as Python packages, imported from the repository's root
(python3 -m tests.grader, python3 -m tests.project.test_grade): a package here,
not a namespace, so that no installed package named `tests` is taken for it.
"""
