# The few commands people type. Each target installs what it is missing first (scripts/deps.sh),
# so both README commands work on a fresh Debian 12 machine.
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?= -c release

.PHONY: demo test deps build unit embedded-host
deps:
	@bash scripts/deps.sh

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

include $(wildcard mk/*.mk)
