"""001_759117b8232d72ac.txt: Tahir, Ganguli, Rotskoff, "Features are fate" (2024)."""

from verify.kit import Paper

PAPER = Paper("tahir2024", "001_759117b8232d72ac.txt",
              ("Tahir, Ganguli, Rotskoff, "
               "Features are fate: a theory of transfer learning in high-dimensional regression (2024)"))
