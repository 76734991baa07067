"""Claims of 000_efaf07e323d59f0e.txt (Shachaf, Brutzkus, Globerson, A Theoretical Analysis of Fine-tuning with Linear
Teachers, NeurIPS 2021).

Modules, by section of the paper:

- :mod:`.common`   paper-level pieces: assumption texts, the source helper, teacher draws, one-sided ordering tests;
- :mod:`.sec3`     §3: perfect pretraining with n_S >= d;
- :mod:`.linear`   §4: Theorem 4.1 (eqs. (1)-(2)), Theorem 4.2 (bound (3)) and the text after it;
- :mod:`.fig1`     §4.2: Figure 1 (Top vs Bottom Eigen Align);
- :mod:`.deep`     §5: Theorem 5.2 (eqs. (5)-(6)) against literal gradient descent on deep linear networks, and the
                   comparison with 001 (Tahir et al.) Theorem 3.9 / eq. (142) on the same runs;
- :mod:`.risk`     §5.1: eq. (7), Theorems 5.3 (eq. (8)) and 5.4 (bounds (9)-(10));
- :mod:`.fig2`     §5.3: Figures 2a and 2b;
- :mod:`.freeze`   §5.2-5.3: Theorem 5.5 (frozen first layers), the approximate-balance discussion, Figure 3;
- :mod:`.fig3_small_n` §5.3: Figure 3 read at every n (an extension, in Theorem 5.5's idealisation);
- :mod:`.ntk`      §6: Theorem 6.1 and Corollaries 6.2-6.3 (two-layer ReLU networks in the NTK regime), one module
                   per result;
- :mod:`.sec6_text` §6: Theorem 6.1's iteration count and the initialisation sentence of the setting;
- :mod:`.table1`   Table 1 (MNIST correlations).
"""

from verify.kit import Paper

PAPER = Paper("shachaf2021", "000_efaf07e323d59f0e.txt",
              ("Shachaf, Brutzkus, Globerson, "
               "A Theoretical Analysis of Fine-tuning with Linear Teachers (NeurIPS 2021)"))
