"""The course's shared code; its Python tools (common/tools) are imported from
the repository's root as common.tools.NAME. A package, not a namespace, so that
no installed package named `common` is taken for it.
"""
