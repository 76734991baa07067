"""Claims, one package per source paper, one module per topic; each module defines ``CLAIMS``."""
