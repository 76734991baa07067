"""Claims of 000_efaf07e323d59f0e.txt (Shachaf, Brutzkus, Globerson, A Theoretical Analysis of Fine-tuning with Linear Teachers, NeurIPS 2021)."""
