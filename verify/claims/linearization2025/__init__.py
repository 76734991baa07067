"""004_04c86723a9734555.txt: slides (EECE695D) presenting "Linearization Explains Fine-Tuning in Large
Language Models" (NeurIPS 2025)."""

from verify.kit import Paper

PAPER = Paper("linearization2025", "004_04c86723a9734555.txt",
              "Linearization Explains Fine-Tuning in Large Language Models (NeurIPS 2025), slide deck")
