# domain-xml-validate.sh: every golden domain XML is valid for libvirt.
. "$VBED_SRC/tests/lib.sh"
need_prog virt-xml-validate
n=0
for f in tests/data/domain/*.xml; do
  virt-xml-validate "$f" domain >/dev/null || fail "$f does not validate"
  n=$((n + 1))
done
[ $n -ge 21 ] || fail "expected at least 21 golden domain files, found $n"
echo "$n files validate"
