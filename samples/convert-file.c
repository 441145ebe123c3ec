// SPDX-License-Identifier: MIT
/*
 * convert-file: convert a raw video file frame by frame through an m2m
 * device.
 *
 *   convert-file [-d DEVICE] [-H] [-V] WIDTHxHEIGHT IN_FMT IN_FILE
 *                OUT_FMT OUT_FILE
 *
 * DEVICE is anything m2m_open() takes: a node path ("/dev/video0"), a
 * driver name ("vhqv"), "inprocess" (the HQV engine inside libm2m), or
 * "auto" (the default: a vhqv node if there is one, else any m2m node,
 * else the in-process engine). -H and -V flip the picture. Formats are
 * libm2m's names ("YUYV", "NV12", "RGB24", ...; see m2m_fourcc_to_name()).
 *
 * Each frame goes through m2m_convert(), which manages the device's
 * buffers itself: the simplest way to use libm2m.
 *
 * Example: convert-file 640x480 YUYV clip.yuyv UYVY clip.uyvy
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>

static int usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-d DEVICE] [-H] [-V] WIDTHxHEIGHT IN_FMT "
		"IN_FILE OUT_FMT OUT_FILE\n", argv0);
	return 2;
}

static int fail(const char *what)
{
	fprintf(stderr, "convert-file: %s: %s\n", what, m2m_last_error());
	return 1;
}

int main(int argc, char **argv)
{
	const char *device = "auto";
	struct m2m_format in, out;
	struct m2m_device_info info;
	struct m2m_device *dev;
	unsigned int width, height;
	int hflip = 0, vflip = 0, opt, frames = 0, ret = 1;
	unsigned char *src = NULL, *dst = NULL;
	FILE *fin = NULL, *fout = NULL;

	while ((opt = getopt(argc, argv, "d:HV")) != -1) {
		switch (opt) {
		case 'd': device = optarg; break;
		case 'H': hflip = 1; break;
		case 'V': vflip = 1; break;
		default: return usage(argv[0]);
		}
	}
	if (argc - optind != 5 ||
	    sscanf(argv[optind], "%ux%u", &width, &height) != 2)
		return usage(argv[0]);

	if (m2m_format_init(&in, m2m_fourcc_from_name(argv[optind + 1]),
			    width, height) < 0)
		return fail(argv[optind + 1]);
	if (m2m_format_init(&out, m2m_fourcc_from_name(argv[optind + 3]),
			    width, height) < 0)
		return fail(argv[optind + 3]);
	if (m2m_open(&dev, device) < 0)
		return fail(device);
	if (m2m_device_get_info(dev, &info) < 0) {
		fail(device);
		goto out;
	}

	if (m2m_set_format(dev, &in, M2M_QUEUE_OUTPUT) < 0 ||
	    m2m_set_format(dev, &out, M2M_QUEUE_CAPTURE) < 0 ||
	    m2m_set_control(dev, V4L2_CID_HFLIP, hflip) < 0 ||
	    m2m_set_control(dev, V4L2_CID_VFLIP, vflip) < 0) {
		fail("setting up the device");
		goto out;
	}

	src = malloc(m2m_format_frame_size(&in));
	dst = malloc(m2m_format_frame_size(&out));
	fin = fopen(argv[optind + 2], "rb");
	fout = fopen(argv[optind + 4], "wb");
	if (!src || !dst || !fin || !fout) {
		perror("convert-file");
		goto out;
	}

	while (fread(src, m2m_format_frame_size(&in), 1, fin) == 1) {
		int n = m2m_convert(dev, dst, m2m_format_frame_size(&out), src,
				    m2m_format_frame_size(&in));

		if (n < 0) {
			fail("converting");
			goto out;
		}
		if (fwrite(dst, n, 1, fout) != 1) {
			perror("convert-file: writing");
			goto out;
		}
		frames++;
	}
	printf("convert-file: %d frames of %ux%u %s -> %s through %s (%s)\n",
	       frames, width, height, argv[optind + 1], argv[optind + 3],
	       info.path, info.driver);
	ret = frames > 0 ? 0 : 1;
out:
	if (fin)
		fclose(fin);
	if (fout && fclose(fout) != 0)
		ret = 1;
	free(src);
	free(dst);
	m2m_close(dev);
	return ret;
}
