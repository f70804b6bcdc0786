"""The graphs and datasets/fetch.py, imported from the repository's root as
datasets.fetch. A package, not a namespace, so that an installed package named
`datasets` is not taken for it.
"""
