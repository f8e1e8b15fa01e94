# The box's OS image. The service unit's exposure score and facts run in make test:
#   make image-unit-test
.PHONY: image-unit-test
image-unit-test:
	@bash tests/image/unit-security.sh
