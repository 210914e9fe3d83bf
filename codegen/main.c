/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-gen: YAML counter model -> <prefix>_stats.h, <prefix>_schema.c
 * and <MODULE-NAME>.txt, and on request a Prometheus snmp_exporter
 * generator.yml. Exit status: 0 success, 1 usage or I/O error, 2 model
 * error.
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "gen_names.h"
#include "model.h"
#include "output.h"
#include "strbuf.h"

#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "unknown"
#endif

static void
usage(FILE *f)
{
	fputs("usage: fastmib-gen MODEL.yaml -o DIR\n"
	      "       fastmib-gen --check MODEL.yaml\n"
	      "       fastmib-gen --names MODEL.yaml\n"
	      "       fastmib-gen MODEL.yaml [-o DIR] -x FILE [--snmp-exporter-events]\n"
	      "\n"
	      "Generate <prefix>_stats.h, <prefix>_schema.c and <MODULE-NAME>.txt\n"
	      "from a fastmib counter model (see docs/model.md).\n"
	      "\n"
	      "  -o, --output DIR  write the generated files into DIR (created if needed)\n"
	      "  -c, --check       validate the model only; write nothing\n"
	      "  -n, --names       validate, then list every name the outputs define\n"
	      "                    (namespace, name, model object); write nothing\n"
	      "  -x, --snmp-exporter FILE\n"
	      "                    also (or only) write a Prometheus snmp_exporter\n"
	      "                    generator.yml with a module for the model to FILE\n"
	      "                    (- for standard output); see docs/nms.md\n"
	      "      --snmp-exporter-events\n"
	      "                    include the event table in that module (a row,\n"
	      "                    and new series, per logged record)\n"
	      "  -h, --help        show this help\n"
	      "  -V, --version     show the version\n"
	      "\n"
	      "Exit status: 0 success, 1 usage or I/O error, 2 model error\n"
	      "(reported as FILE:LINE:COL: error: MESSAGE).\n", f);
}

static char *
file_name(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%s", a, b);
	return s;
}

static int
generate(const struct model *m, const char *dir)
{
	struct strbuf text[3];
	struct out_file files[3];
	int rc, i;

	for (i = 0; i < 3; i++)
		sb_init(&text[i]);
	emit_header(m, &text[0]);
	emit_schema(m, &text[1]);
	emit_mib(m, &text[2]);
	files[0].name = file_name(m->prefix, "_stats.h");
	files[1].name = file_name(m->prefix, "_schema.c");
	files[2].name = file_name(m->module, ".txt");
	for (i = 0; i < 3; i++)
		files[i].text = &text[i];
	rc = write_outputs(dir, files, 3);
	for (i = 0; i < 3; i++) {
		free(files[i].name);
		sb_free(&text[i]);
	}
	return rc;
}

/* FILE, or standard output for "-"; a file is replaced all at once. */
static int
write_exporter(const struct model *m, const char *path, bool event_table)
{
	struct strbuf text;
	int rc = 0;

	sb_init(&text);
	emit_exporter(m, event_table, &text);
	if (strcmp(path, "-") == 0) {
		if (fwrite(text.data, 1, text.len, stdout) != text.len || fflush(stdout) != 0) {
			perror("fastmib-gen: standard output");
			rc = 1;
		}
	} else {
		/* dirname() and basename() may modify their argument */
		char *d = xstrdup(path), *b = xstrdup(path);
		struct out_file f = { basename(b), &text };

		rc = write_outputs(dirname(d), &f, 1);
		free(d);
		free(b);
	}
	sb_free(&text);
	return rc;
}

enum { OPT_EXPORTER_EVENTS = 256 };

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "check", no_argument, NULL, 'c' },
		{ "names", no_argument, NULL, 'n' },
		{ "snmp-exporter", required_argument, NULL, 'x' },
		{ "snmp-exporter-events", no_argument, NULL, OPT_EXPORTER_EVENTS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outdir = NULL, *exporter = NULL;
	struct model m;
	int check = 0, list = 0, c, rc;
	bool exporter_events = false;

	while ((c = getopt_long(argc, argv, "o:cnx:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outdir = optarg;
			break;
		case 'c':
			check = 1;
			break;
		case 'n':
			list = 1;
			break;
		case 'x':
			exporter = optarg;
			break;
		case OPT_EXPORTER_EVENTS:
			exporter_events = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("fastmib-gen %s (model format %d)\n", FASTMIB_VERSION,
			       FASTMIB_MODEL_VERSION);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind != argc - 1 || check + list + (outdir || exporter) != 1 ||
	    (exporter_events && !exporter) || (exporter && !*exporter)) {
		usage(stderr);
		return 1;
	}
	rc = model_load(argv[optind], &m);
	if (rc == 0 && list)
		print_names(&m, stdout);
	if (rc == 0 && outdir)
		rc = generate(&m, outdir);
	if (rc == 0 && exporter)
		rc = write_exporter(&m, exporter, exporter_events);
	model_free(&m);
	return rc;
}
