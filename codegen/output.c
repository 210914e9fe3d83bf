/* SPDX-License-Identifier: BSD-3-Clause */
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int
mkdir_p(const char *dir)
{
	char *path = xstrdup(dir);
	char *p;
	int rc = 0;

	for (p = path + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		{
			char c = *p;

			*p = '\0';
			if (mkdir(path, 0777) != 0 && errno != EEXIST) {
				fprintf(stderr, "fastmib-gen: cannot create %s: %s\n",
					path, strerror(errno));
				rc = 1;
			}
			*p = c;
			if (rc || c == '\0')
				break;
		}
	}
	free(path);
	return rc;
}

static int
write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static char *
join(const char *dir, const char *a, const char *b)
{
	size_t n = strlen(dir) + strlen(a) + strlen(b) + 2;
	char *s = xmalloc(n);

	snprintf(s, n, "%s/%s%s", dir, a, b);
	return s;
}

int
write_outputs(const char *dir, const struct out_file *files, size_t n)
{
	char **tmp = xcalloc(n, sizeof(*tmp));
	mode_t mask = umask(0);
	size_t i;
	int rc = 1;

	umask(mask);
	if (mkdir_p(dir))
		goto out;
	for (i = 0; i < n; i++) {
		int fd;

		tmp[i] = join(dir, ".", files[i].name);
		tmp[i] = xrealloc(tmp[i], strlen(tmp[i]) + 8);
		strcat(tmp[i], ".XXXXXX");
		fd = mkstemp(tmp[i]);
		if (fd < 0) {
			fprintf(stderr, "fastmib-gen: cannot create a file in %s: %s\n",
				dir, strerror(errno));
			free(tmp[i]);
			tmp[i] = NULL;
			goto out;
		}
		/* mkstemp() makes 0600; outputs are ordinary build products */
		if (fchmod(fd, 0666 & ~mask) != 0 ||
		    write_all(fd, files[i].text->data, files[i].text->len) != 0) {
			fprintf(stderr, "fastmib-gen: cannot write %s: %s\n", tmp[i],
				strerror(errno));
			close(fd);
			goto out;
		}
		if (close(fd) != 0) {
			fprintf(stderr, "fastmib-gen: cannot write %s: %s\n", tmp[i],
				strerror(errno));
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		char *final = join(dir, files[i].name, "");

		if (rename(tmp[i], final) != 0) {
			fprintf(stderr, "fastmib-gen: cannot rename %s to %s: %s\n",
				tmp[i], final, strerror(errno));
			free(final);
			goto out;
		}
		free(final);
		free(tmp[i]);
		tmp[i] = NULL;
	}
	rc = 0;
out:
	for (i = 0; i < n; i++) {
		if (tmp[i])
			unlink(tmp[i]);
		free(tmp[i]);
	}
	free(tmp);
	return rc;
}
