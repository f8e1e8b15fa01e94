/*
 * wbcheck: scans a known pattern out through vkms and reads it back from the writeback connector.
 *
 * Debian's modetest can set modes on vkms but cannot attach a writeback framebuffer or wait for its
 * out-fence, so it cannot prove what was scanned out; this small libdrm client can. It also blends a
 * half-transparent overlay plane (vkms.enable_overlay=1) and checks vkms's premultiplied blend,
 * out = src + dst * (1 - a).
 *
 * Usage: wbcheck [/dev/dri/cardN] [commits]      exit 0 when every pixel of every commit matched.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

#ifndef DRM_CLIENT_CAP_WRITEBACK_CONNECTORS
#define DRM_CLIENT_CAP_WRITEBACK_CONNECTORS 5
#endif
#ifndef DRM_MODE_CONNECTOR_WRITEBACK
#define DRM_MODE_CONNECTOR_WRITEBACK 18
#endif

struct buffer {
	uint32_t width, height, pitch, handle, fb;
	uint64_t size;
	uint32_t *pixels;
};

static int fd;

static void die(const char *what)
{
	fprintf(stderr, "wbcheck: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint32_t property_id(uint32_t object, uint32_t type, const char *name)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, object, type);
	uint32_t id = 0;

	for (uint32_t i = 0; props && i < props->count_props && !id; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
		if (p && strcmp(p->name, name) == 0)
			id = p->prop_id;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	if (!id) {
		fprintf(stderr, "wbcheck: object %u has no property %s\n", object, name);
		exit(1);
	}
	return id;
}

static uint64_t property_value(uint32_t object, uint32_t type, const char *name)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, object, type);
	uint64_t value = UINT64_MAX;

	for (uint32_t i = 0; props && i < props->count_props; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
		if (p && strcmp(p->name, name) == 0)
			value = props->prop_values[i];
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return value;
}

static void add(drmModeAtomicReq *req, uint32_t object, uint32_t type, const char *name, uint64_t value)
{
	if (drmModeAtomicAddProperty(req, object, property_id(object, type, name), value) < 0)
		die(name);
}

static struct buffer make_buffer(uint32_t width, uint32_t height, uint32_t format)
{
	struct buffer b = { .width = width, .height = height };
	struct drm_mode_create_dumb create = { .width = width, .height = height, .bpp = 32 };
	struct drm_mode_map_dumb map = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		die("create dumb buffer");
	b.handle = create.handle;
	b.pitch = create.pitch;
	b.size = create.size;
	handles[0] = b.handle;
	pitches[0] = b.pitch;
	if (drmModeAddFB2(fd, width, height, format, handles, pitches, offsets, &b.fb, 0))
		die("add framebuffer");
	map.handle = b.handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
		die("map dumb buffer");
	b.pixels = mmap(NULL, b.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
	if (b.pixels == MAP_FAILED)
		die("mmap");
	return b;
}

static uint32_t *pixel(struct buffer *b, uint32_t x, uint32_t y)
{
	return (uint32_t *)((uint8_t *)b->pixels + (size_t)y * b->pitch) + x;
}

/* A pattern where every pixel differs from its neighbours and from the previous commit's. */
static uint32_t pattern(uint32_t x, uint32_t y, uint32_t seed)
{
	uint32_t r = (x * 7 + seed * 13) & 0xff, g = (y * 5 + seed * 29) & 0xff, b = (x ^ y ^ seed) & 0xff;
	return 0xff000000u | r << 16 | g << 8 | b;
}

static int blend_channel(int src, int dst, int alpha)
{
	return src + (dst * (255 - alpha) + 127) / 255;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/dri/card0";
	int commits = argc > 2 ? atoi(argv[2]) : 3;
	uint32_t virtual_conn = 0, wb_conn = 0, crtc = 0, primary = 0, overlay = 0;
	drmModeModeInfo mode;
	int have_mode = 0, failures = 0;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die(path);
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
		die("client caps");

	drmModeRes *res = drmModeGetResources(fd);
	if (!res || res->count_crtcs < 1)
		die("resources");
	crtc = res->crtcs[0];
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
		if (!c)
			continue;
		if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
			wb_conn = c->connector_id;
		if (c->connector_type == DRM_MODE_CONNECTOR_VIRTUAL && !virtual_conn) {
			virtual_conn = c->connector_id;
			for (int m = 0; m < c->count_modes; m++) {
				if (!have_mode || (c->modes[m].type & DRM_MODE_TYPE_PREFERRED)) {
					mode = c->modes[m];
					have_mode = 1;
				}
			}
		}
		drmModeFreeConnector(c);
	}
	if (!virtual_conn || !wb_conn || !have_mode) {
		fprintf(stderr, "wbcheck: need a Virtual connector with a mode and a Writeback connector\n");
		return 1;
	}

	drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
	for (uint32_t i = 0; planes && i < planes->count_planes; i++) {
		uint64_t type = property_value(planes->planes[i], DRM_MODE_OBJECT_PLANE, "type");
		if (type == DRM_PLANE_TYPE_PRIMARY && !primary)
			primary = planes->planes[i];
		if (type == DRM_PLANE_TYPE_OVERLAY && !overlay)
			overlay = planes->planes[i];
	}
	if (!primary) {
		fprintf(stderr, "wbcheck: no primary plane\n");
		return 1;
	}

	uint32_t w = mode.hdisplay, h = mode.vdisplay;
	printf("wbcheck: connectors virtual=%u writeback=%u crtc=%u primary=%u overlay=%u mode=%ux%u\n",
	       virtual_conn, wb_conn, crtc, primary, overlay, w, h);
	struct buffer scan = make_buffer(w, h, DRM_FORMAT_XRGB8888);
	struct buffer back = make_buffer(w, h, DRM_FORMAT_XRGB8888);
	uint32_t blob;
	if (drmModeCreatePropertyBlob(fd, &mode, sizeof(mode), &blob))
		die("mode blob");

	/* The last commit adds a half-transparent overlay square when the board exposes one. */
	uint32_t ow = w / 4, oh = h / 4, ox = w / 8, oy = h / 8;
	struct buffer over = { 0 };
	if (overlay)
		over = make_buffer(ow, oh, DRM_FORMAT_ARGB8888);

	for (int n = 0; n < commits + (overlay ? 1 : 0); n++) {
		int with_overlay = n == commits;
		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++)
				*pixel(&scan, x, y) = pattern(x, y, n);
		memset(back.pixels, 0, back.size);
		if (with_overlay)
			for (uint32_t y = 0; y < oh; y++)
				for (uint32_t x = 0; x < ow; x++) {
					/* Premultiplied: each channel is at most alpha. */
					uint32_t a = 0x80, r = (x * 3) % (a + 1), g = (y * 2) % (a + 1), b = (x + y) % (a + 1);
					*pixel(&over, x, y) = a << 24 | r << 16 | g << 8 | b;
				}

		int32_t fence = -1;
		drmModeAtomicReq *req = drmModeAtomicAlloc();
		add(req, crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
		add(req, crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
		add(req, virtual_conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "FB_ID", scan.fb);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)w << 16);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)h << 16);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "CRTC_W", w);
		add(req, primary, DRM_MODE_OBJECT_PLANE, "CRTC_H", h);
		if (overlay) {
			add(req, overlay, DRM_MODE_OBJECT_PLANE, "FB_ID", with_overlay ? over.fb : 0);
			add(req, overlay, DRM_MODE_OBJECT_PLANE, "CRTC_ID", with_overlay ? crtc : 0);
			if (with_overlay) {
				add(req, overlay, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
				add(req, overlay, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
				add(req, overlay, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)ow << 16);
				add(req, overlay, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)oh << 16);
				add(req, overlay, DRM_MODE_OBJECT_PLANE, "CRTC_X", ox);
				add(req, overlay, DRM_MODE_OBJECT_PLANE, "CRTC_Y", oy);
				add(req, overlay, DRM_MODE_OBJECT_PLANE, "CRTC_W", ow);
				add(req, overlay, DRM_MODE_OBJECT_PLANE, "CRTC_H", oh);
			}
		}
		add(req, wb_conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc);
		add(req, wb_conn, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID", back.fb);
		add(req, wb_conn, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_OUT_FENCE_PTR", (uint64_t)(uintptr_t)&fence);
		if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
			die("atomic commit (with drm.debug=0x1 the kernel log says why)");
		drmModeAtomicFree(req);

		struct pollfd p = { .fd = fence, .events = POLLIN };
		if (fence < 0 || poll(&p, 1, 5000) != 1) {
			fprintf(stderr, "wbcheck: commit %d: writeback fence did not signal within 5 s\n", n);
			return 1;
		}
		close(fence);

		long wrong = 0;
		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				uint32_t want = pattern(x, y, n) & 0xffffff, got = *pixel(&back, x, y) & 0xffffff;
				if (with_overlay && x >= ox && x < ox + ow && y >= oy && y < oy + oh) {
					uint32_t o = *pixel(&over, x - ox, y - oy), a = o >> 24, blended = 0;
					for (int s = 0; s < 24; s += 8) {
						int c = blend_channel((o >> s) & 0xff, (want >> s) & 0xff, a);
						int gc = (got >> s) & 0xff;
						if (abs(gc - c) > 1) /* vkms blends in 16 bits and rounds once more */
							blended = 1;
					}
					if (blended && wrong++ < 5)
						printf("wbcheck: commit %d overlay pixel %u,%u: got %06x\n", n, x, y, got);
					continue;
				}
				if (want != got && wrong++ < 5)
					printf("wbcheck: commit %d pixel %u,%u: want %06x got %06x\n", n, x, y, want, got);
			}
		printf("wbcheck: commit %d%s: %ux%u read back, %ld pixels wrong\n", n,
		       with_overlay ? " (overlay)" : "", w, h, wrong);
		failures += wrong != 0;
	}
	return failures ? 1 : 0;
}
