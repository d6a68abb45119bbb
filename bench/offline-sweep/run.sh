#!/bin/bash
# One row per task set and part of `npm run bench:offline`, compact, for a sweep of the offline scorer's knobs
# (docs/METHOD-notes.md note 37). The knobs are environment variables read by knobs.patch, a patch of the scorer kept
# out of the product: no setting met every target and kept the demo task's answer (note 37):
#   git apply bench/offline-sweep/knobs.patch && OQ_IDFP=0.85 bench/offline-sweep/run.sh; git apply -R bench/offline-sweep/knobs.patch
# OQ_IDFP idf power (scorer only), OQ_K1 saturation, OQ_WN/OQ_WD/OQ_WB field weights, OQ_COV coverage exponent,
# OQ_SR/OQ_ER and OQ_SF/OQ_EF slope and even-odds z of relevance and stage fit, OQ_LF/OQ_LR weight of each sentence's
# leading word, OQ_PRF_DOCS/OQ_PRF_TERMS/OQ_PRF_W feedback expansion of the relevance query, OQ_MS spread floor,
# OQ_EXW example weight, OQ_GRADED=1|2 alignment: a state sharing no word with the skill state scores by its background
# instead of the common floor (2: only breaks the floor tie, OQ_EPS). Unset, every knob is v4. knobs.patch applies to the
# v4 scorer (commit 802bdd5); v6 changed its context.
# subword-knobs.patch (v6's sub-word evidence, docs/METHOD-notes.md note 44): OQ_SWN n-gram length (4), OQ_SWN2 upper
# length of a range of lengths, OQ_SWP=1 word prefixes of OQ_SWN or more letters instead of n-grams, OQ_SWW=0 no IDF
# weights, OQ_NORM=doc|query overlap as the share of one side's weight instead of Dice:
#   git apply bench/offline-sweep/subword-knobs.patch && OQ_SWN=5 TRAIN_ONLY=1 bench/offline-sweep/run.sh
# v8-probes.patch and compound-probe.patch (docs/METHOD-notes.md note 50; apply to v6, commit d3e8ccd): OQ_RELPLAIN=1
# task relevance reads example lists in full, OQ_BODYCAP=n at most n occurrences of a term in a body count;
# OQ_COMP=w a library word that is a query term joined to 3+ more letters counts w of an occurrence (OQ_COMPMIN 4):
#   git apply bench/offline-sweep/compound-probe.patch && OQ_COMP=0.5 TRAIN_ONLY=1 bench/offline-sweep/run.sh
# SCORER=v4 runs the scorer before v6 (default v6). TRAIN_ONLY=1 prints the training parts only.
cd "$(dirname "$0")/../.." || exit 1
rows=$(npx tsx bench/offline-quality.ts --scorer "${SCORER:-v6}" 2>&1 | grep -E "^(sample|zjunlp)")
[ -n "$TRAIN_ONLY" ] && rows=$(echo "$rows" | grep " train ")
echo "== $(env | grep '^OQ_' | sort | tr '\n' ' ')"
echo "$rows" | awk '{printf "%-14s %-9s Hit@1 full/recall %5s/%5s  cover full/dense/no-parse %5s/%5s/%5s  prec %5s  %s\n",$1,$2,$7,$8,$11,$12,$13,$16,$18}'
