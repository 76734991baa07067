from verify.kit import Paper

PAPER = Paper("dayi2024", "003_83d15a9763fa9a30.txt",
              "Dayi, Chen, Gradient dynamics for low-rank fine-tuning beyond kernels (arXiv 2411.15385)")
