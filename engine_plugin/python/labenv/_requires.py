"""The one way labenv's adapters import the package they adapt to."""

import importlib


def require(module, user, pip_name=None):
    """Imports `module` for labenv module `user`, or raises ImportError
    naming the package to install (pip_name when it differs)."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            "{} needs the {!r} package, which is not importable here ({}); install it "
            "with: pip install {}".format(user, module, error, pip_name or module)
        ) from error
