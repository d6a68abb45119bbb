#!/bin/sh
# Print the commits since a tag, one per line, oldest first, as raw material for a changelog.
# Usage: commits-since-tag.sh <tag>
set -eu
tag="${1:?usage: commits-since-tag.sh <tag>}"
git log --reverse --no-merges --format='%h %s (%an)' "$tag"..HEAD
