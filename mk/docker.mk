# docker.mk - the quick start and the container, proven with a real Docker
# engine (Debian's docker.io; dockerd is started when none runs).  Neither
# is part of `make check`, which itself runs inside the fresh container.
#
#   make fresh-check      the README's `make check` and `make run` in a
#                         pristine Debian bookworm container (scripts/fresh-check)
#   make container-test   build the Dockerfile as a user would and test the
#                         running image (scripts/container-test)
#
# Both make their base images when no registry answers (debootstrap, cached
# in GJ_CACHE, default /var/cache/gamejudge) and use host networking only.
.PHONY: fresh-check container-test

fresh-check:
	@BUILD=$(BUILD) scripts/fresh-check

container-test:
	@BUILD=$(BUILD) scripts/container-test
