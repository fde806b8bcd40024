# tests/lib/tree_copy.sh — tree_copy: the temporary copy of the tree that the
# tests adding something the way an author would (t-add-algorithm,
# t-add-flush-path, t-done-early) edit and build. Source after tap.sh.
#
# The firmware's build comes along as it is (make all built it before any
# suite runs), so the copy's make rebuilds only what the author's edit
# changes, as it would in the author's own tree: each test built the whole
# payload again from nothing (~35 s of t-add-algorithm's time on a loaded
# host), which checks nothing an incremental build does not. tar keeps the
# sources' times, so the copied objects are as up to date as the tree's.

# tree_copy DEST DIR...: what git tracks plus new (not ignored) files under
# each DIR of the tree, into DEST (which exists), and firmware/build when the
# tree has one; DEST/.files lists what was copied. Its status.
tree_copy() {
	local dest=$1
	shift
	(cd "$ROOT" && git ls-files -co --exclude-standard "$@") >"$dest/.files" || return 1
	tar -C "$ROOT" -cf - -T "$dest/.files" | tar -C "$dest" -xf - || return 1
	[ ! -d "$ROOT/firmware/build" ] || cp -a "$ROOT/firmware/build" "$dest/firmware/build"
}
