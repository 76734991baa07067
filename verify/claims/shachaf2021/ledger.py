"""Coverage ledger of 000_efaf07e323d59f0e.txt (Shachaf, Brutzkus, Globerson, NeurIPS 2021): every labelled item of
the text, with the claims that test it, or why none does (``verify.audit.coverage``; ``python -m verify coverage
shachaf2021``). Started from ``python -m verify coverage --init shachaf2021``; entries marked ``manual=True`` are
result sentences and experimental settings of the running text that the parser does not find.

The supplementary material (proofs of Theorems 4.1, 4.2, 5.2-5.5, 6.1, the iteration count of footnote 3) is not
part of the text: its steps cannot be ledgered here.
"""
from verify.kit import Ledger, LedgerEntry as E

_T = "shachaf2021."

LEDGER = Ledger("shachaf2021", "000_efaf07e323d59f0e.txt", [
    # ---------------------------------------------------------------- abstract and introduction (by hand)
    E("abstract: generalization follows a source/target/covariance measure", 9, 9, _T + "thm4.2", _T + "fig1.small_n",
      _T + "fig1.large_n", manual=True),
    E("abstract: depth changes the similarity measure", 9, 9, _T + "thm5.2.limit", _T + "thm5.3", _T + "fig2a",
      manual=True),
    E("abstract: shallow ReLU results (sample complexity vs source/target)", 9, 9, _T + "thm6.1", _T + "cor6.3",
      manual=True),
    E("intro: alignment of theta_T - theta_S with the covariance's eigenvectors drives sample complexity", 21, 21,
      _T + "thm4.2", _T + "fig1.small_n", _T + "fig1.large_n", _T + "fig1.zero", manual=True),
    E("intro: deeper networks cancel scale differences between source and target", 21, 21, _T + "thm5.3",
      _T + "thm5.4.source_norm", _T + "fig2a", _T + "fig2b", manual=True),
    E("intro: ReLU: simple connection between source/target models and test error", 23, 23, _T + "cor6.3",
      _T + "sec6.distance", manual=True),
    # ---------------------------------------------------------------- §3 preliminaries
    E("display L41", 41, 41, reason="definition", note="P_<=k, P_>k: projections on the covariance's eigenvectors"),
    E("display L47", 47, 47, reason="definition", note="P_par, P_perp: projections on the row space of X"),
    E("display L55", 55, 55, reason="definition", note="train loss L and population risk R"),
    E("Assumption 3.1", 61, 61, reason="assumption", note="XX^T non-singular; the claims draw X of full row rank"),
    E("Assumption 3.2", 65, 65, reason="assumption", note="perfect pretraining; its sufficient condition n_S >= d is "
      "the next entry"),
    E("§3: perfect pretraining is achieved when n_S >= d", 67, 67, _T + "sec3.perfect_pretraining", manual=True),
    E("Assumption 3.3", 69, 69, reason="assumption", note="zero train loss after fine-tuning"),
    E("§3: GD reaches arbitrarily small train loss in linear regression", 71, 71, _T + "sec3.train_loss",
      note="the deep linear case is cited ([32])", manual=True),
    # ---------------------------------------------------------------- §4 linear regression
    E("Theorem 4.1", 81, 88, _T + "thm4.1"),
    E("eq. (1)", 83, 83, _T + "thm4.1", _T + "thm5.2.depth1"),
    E("eq. (2)", 87, 88, _T + "thm4.1"),
    E("Theorem 4.2", 94, 99, _T + "thm4.2", _T + "thm4.2.c1", _T + "thm4.2.event"),
    E("eq. (3)", 96, 97, _T + "thm4.2", _T + "thm4.2.c1"),
    E("§4.1: proof sketch (Davis-Kahan on P_perp(theta_T - theta_S))", 101, 101, _T + "thm4.2.event", manual=True),
    E("§4.1: g ~ n^-0.5, top-k term ~ n^-1.5, bottom-k term ~ n^-0.5", 103, 103, _T + "sec4.rates", _T + "sec4.rates.plain", manual=True),
    E("§4.1: small n (g > 1) vs large n (g < 1) regimes of the bound", 105, 105, _T + "sec4.regimes", manual=True),
    E("§4.1: remark on m: take the largest m with lambda_{m+1} ~ lambda_m", 107, 107,
      reason="no result", note="advice ('the trade-off in selecting it suggests taking ...'), and ambiguous as a "
      "statement: read literally the largest m with lambda_(m+1) ~ lambda_m is d - 1 inside the bottom block; read as "
      "the largest m before an eigen-gap it is the minimiser of (3) on a two-level spectrum only when g lies between the "
      "two levels (for g below the lower level (3) keeps decreasing past the gap; worked out by hand, not encoded)",
      manual=True),
    E("Table 1", 109, 109, _T + "table1"),
    E("§4.2 setting: d = 1000, m = 50, eigenvalues 1.5 vs 0.3, equal ||theta_T - theta_S||", 116, 116,
      _T + "fig1.small_n", _T + "fig1.large_n", _T + "fig1.zero", manual=True),
    E("§4.2: Top Eigen Align wins at few samples, Bottom at large n, Bottom reaches 0 before n = d", 118, 118,
      _T + "fig1.small_n", _T + "fig1.large_n", _T + "fig1.zero", manual=True),
    E("§4.2 setting: MNIST source/target pairs, R^2 of error vs bound", 120, 120, _T + "table1", manual=True),
    # ---------------------------------------------------------------- §5 deep linear networks
    E("display L128", 128, 128, reason="definition", note="end-to-end vector beta(t) = W_1 ... W_L"),
    E("Definition 5.1", 134, 136, reason="definition", note="0-balanced weights (eq. (4))"),
    E("eq. (4)", 136, 136, reason="definition", note="the 0-balancedness equations of Definition 5.1"),
    E("Figure 1", 142, 142, _T + "fig1.small_n", _T + "fig1.large_n", _T + "fig1.zero"),
    E("Theorem 5.2", 148, 156, _T + "thm5.2", _T + "thm5.2.limit", _T + "thm5.2.depth1"),
    E("eq. (5)", 150, 151, _T + "thm5.2", _T + "thm5.2.fixed_point", _T + "vs_tahir2024.eq5",
      _T + "vs_tahir2024.eq142"),
    E("eq. (6)", 155, 156, _T + "thm5.2.limit"),
    E("§5: proof sketch: P_perp W_1 and its norm stay fixed under GF", 158, 158, _T + "thm5.2.proof", manual=True),
    E("§5: (5) is not closed form; (6) rescales the orthogonal component", 160, 160, _T + "thm5.2.fixed_point",
      _T + "thm5.2.limit", manual=True),
    E("eq. (7)", 168, 169, _T + "eq7"),
    E("Theorem 5.3", 175, 186, _T + "thm5.3"),
    E("display L177", 177, 177, reason="assumption", note="the hypothesis theta_T = alpha theta_S of Theorem 5.3"),
    E("display L181", 181, 181, _T + "thm5.3"),
    E("eq. (8)", 185, 186, _T + "thm5.3"),
    E("§5.1: aligned tasks: zero risk for the deep predictor even with one sample", 188, 188, _T + "thm5.3",
      manual=True),
    E("Theorem 5.4", 192, 200, _T + "thm5.4", _T + "thm5.4.c1"),
    E("eq. (9)", 194, 195, _T + "thm5.4", _T + "thm5.4.source_norm"),
    E("eq. (10)", 199, 200, _T + "thm5.4", _T + "thm5.4.c1"),
    E("§5.1: (9) does not depend on ||theta_S||, (10) does", 202, 202, _T + "thm5.4.source_norm", manual=True),
    E("Figure 2", 212, 212, _T + "fig2a", _T + "fig2b"),
    E("Theorem 5.5", 214, 214, _T + "thm5.5"),
    E("Figure 3", 220, 220, _T + "fig3", _T + "thm5.5.approx"),
    E("§5.2: failure persists under delta-approximate balancedness", 222, 222, _T + "thm5.5.approx", manual=True),
    E("§5.2: larger initialization scale (Xavier) avoids the degeneracy", 224, 224, _T + "sec5.2.workaround",
      manual=True),
    E("§5.3 settings: theta_T = alpha theta_S + eps, ||eps|| ~ 0.5||theta_S||, d/10 samples; "
      "||hat theta_T - hat theta_S|| ~ 0.1, 7 layers", 228, 228, _T + "fig2a", _T + "fig2b", manual=True),
    E("§5.3: Figure 3 models: frozen / vanilla / fine-tune", 230, 230, _T + "fig3", _T + "fig3.small_n", manual=True),
    # ---------------------------------------------------------------- §6 two-layer ReLU (NTK)
    E("§6 setting: 'initialized from a standard Gaussian with variance kappa^2'", 234, 234,
      _T + "sec6.init_variance", manual=True),
    E("Theorem 6.1", 238, 242, _T + "thm6.1"),
    E("eq. (11)", 240, 240, _T + "thm6.1"),
    E("Theorem 6.1: iteration count t >= Omega((1/(eta lambda_0)) log ||y~||^-1)", 238, 238,
      _T + "thm6.1.iterations", manual=True),
    E("footnote 3: bound on the number of pretraining iterations", 244, 244, reason="not in the text",
      note="'See the supp for a bound on the number of iterations'", manual=True),
    E("§6: the risk follows the distance of y from the pretrained outputs", 248, 248, _T + "sec6.residual",
      manual=True),
    E("§6: H(t) stays close to H(0) and H^inf after pretraining", 250, 250, _T + "sec6.gram", manual=True),
    E("Corollary 6.2", 254, 254, _T + "cor6.2"),
    E("Corollary 6.3", 258, 260, _T + "cor6.3", _T + "cor6.3.first_term"),
    E("display L260", 260, 260, _T + "cor6.3"),
    E("§6: fine-tuning improves as the source-target distance decreases", 262, 262, _T + "sec6.distance",
      manual=True),
    E("§6: conjecture: the non-linear case depends on the NTK feature covariance", 262, 262, reason="no result",
      note="a conjecture the paper leaves open", manual=True),
])
