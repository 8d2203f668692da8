__version__: str
_version: str
