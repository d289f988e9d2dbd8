"""PageIndex Desktop: a PDF reader that builds each document's section tree and answers with checked citations."""

__version__ = "0.1.0"
