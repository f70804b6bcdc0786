"""The Gradescope autograder: run_autograder (run for every submission),
setup.sh (run once when the image is built) and package.py, which writes one
lab's zip (python3 -m tests.grader.gradescope.package --help).
"""
