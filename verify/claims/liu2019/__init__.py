"""002_040fb3cd502e6250.txt: Liu, Long, Wang, Jordan, "Towards Understanding the Transferability of Deep
Representations" (arXiv 1909.12031): the theory of §6 and App. C simulated literally on wide two-layer ReLU
networks, and the arithmetic of Tables 1-2 (the ImageNet experiments themselves cannot be run here)."""

from verify.kit import Paper

PAPER = Paper("liu2019", "002_040fb3cd502e6250.txt",
              ("Liu, Long, Wang, Jordan, "
               "Towards Understanding the Transferability of Deep Representations (arXiv 1909.12031)"))
