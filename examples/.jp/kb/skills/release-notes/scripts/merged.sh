#!/bin/sh
# The subjects of the merge commits since the last tag.
git log --merges --format=%s "$(git describe --tags --abbrev=0)..HEAD"
