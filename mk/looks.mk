# Looks (issue 37): the command-line checks of --look, `looks --sheet` and hostile .cube files
# with the real executable (tests/looks/cli.sh, about 5 s). The unit tests are LooksTests in `unit`.
#   tests/looks/same-bytes.sh [BASE]  with no look, the same output bytes as BASE (not in make test:
#                                     it builds BASE's binary once, minutes of CPU)
#   tests/looks/colour-science-cubes.sh  remakes the colour-science .cube fixtures (PyPI, in a venv)
.PHONY: looks-cli-test
looks-cli-test: build
	bash tests/looks/cli.sh $(BACKDROP)
