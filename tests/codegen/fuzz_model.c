/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target of fastmib-gen's model loader: any bytes as a model
 * file, loaded (codegen/model_load.c and its parts, the YAML access, the
 * bounds on what a file may cost, the check of the generated names) and,
 * for a model that loads, rendered by every emitter: the C header, the C
 * schema, the MIB, the snmp_exporter module and the list of names.
 *
 * What is checked besides crashes, leaks, undefined behaviour and time:
 * the loader's status is 0, 1 or 2 as fastmib-gen's; a model refused
 * (2) says why as FILE:LINE:COL: error: ..., every line of its messages
 * has that form (error, warning or note), one loaded says no error; and the
 * outputs of a model are the same when rendered twice.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"
#include "gen_names.h"
#include "model_load.h"
#include "strbuf.h"

static char model_path[256], err_path[256];

/* Every line "MODEL:LINE:COL: KIND: ...", KIND error, warning or note;
 * how many are errors. */
static unsigned int
check_messages(const char *text)
{
	size_t plen = strlen(model_path);
	unsigned int errors = 0;

	for (const char *l = text; *l; ) {
		const char *nl = strchr(l, '\n'), *p = l + plen;
		unsigned int digits = 0;

		if (!nl || strncmp(l, model_path, plen) != 0 || *p++ != ':')
			abort();
		for (int field = 0; field < 2; field++, p++) {
			for (digits = 0; *p >= '0' && *p <= '9'; p++)
				digits++;
			if (!digits || *p != ':')
				abort();
		}
		if (!strncmp(p, " error: ", 8))
			errors++;
		else if (strncmp(p, " warning: ", 10) != 0 && strncmp(p, " note: ", 7) != 0)
			abort();
		l = nl + 1;
	}
	return errors;
}

/* Every output of the model into `out` (one text). */
static void
render(const struct model *m, struct strbuf *out)
{
	struct exporter_opts xo = { .max_rows = EXPORTER_MAX_ROWS, .event_table = true };
	char *names;
	size_t len;
	FILE *f = open_memstream(&names, &len);

	if (!f)
		abort();
	emit_header(m, out);
	emit_schema(m, out);
	emit_mib(m, out);
	emit_exporter(m, &xo, out);
	print_names(m, f);
	fclose(f);
	sb_puts(out, names);
	free(names);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model m;
	struct strbuf once, twice;
	char *errs;
	size_t len;
	FILE *ef;
	int fd, saved, rc;
	unsigned int errors;

	if (!model_path[0]) {
		/* in the run's temporary directory (TMPDIR), removed after each input */
		const char *tmp = getenv("TMPDIR");

		snprintf(model_path, sizeof(model_path), "%s/fuzz-model-%d.yaml",
			 tmp ? tmp : "/tmp", (int)getpid());
		snprintf(err_path, sizeof(err_path), "%s/fuzz-model-%d.err",
			 tmp ? tmp : "/tmp", (int)getpid());
	}
	fd = open(model_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0)
		abort();
	/* the loader's messages, as fastmib-gen's standard error */
	fflush(stderr);
	saved = dup(2);
	fd = open(err_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (saved < 0 || fd < 0 || dup2(fd, 2) < 0)
		abort();
	close(fd);
	rc = model_load(model_path, &m);
	fflush(stderr);
	if (dup2(saved, 2) < 0)
		abort();
	close(saved);
	ef = fopen(err_path, "r");
	errs = NULL;
	len = 0;
	if (!ef || getdelim(&errs, &len, '\0', ef) < 0) {
		free(errs);
		errs = strdup("");
	}
	if (ef)
		fclose(ef);
	errors = check_messages(errs);
	free(errs);
	if (rc == 2 ? errors == 0 : rc == 0 ? errors != 0 : true)
		abort();
	if (rc == 0) {
		sb_init(&once);
		sb_init(&twice);
		render(&m, &once);
		render(&m, &twice);
		if (once.len != twice.len || memcmp(once.data, twice.data, once.len) != 0)
			abort();
		sb_free(&once);
		sb_free(&twice);
	}
	model_free(&m);
	unlink(model_path);
	unlink(err_path);
	return 0;
}
