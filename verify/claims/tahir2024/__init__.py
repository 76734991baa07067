"""001_759117b8232d72ac.txt: Tahir, Ganguli, Rotskoff, "Features are fate" (2024)."""
