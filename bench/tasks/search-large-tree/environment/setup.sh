# Generates a tree of 3,000 small files; one of them sets PAYMENT_GATEWAY_URL.
set -e
for d in $(seq 0 29); do
  for e in $(seq 0 9); do
    mkdir -p "tree/d$d/e$e"
    for f in $(seq 0 9); do
      printf 'SETTING_%s_%s_%s=value\nOTHER=%s\n' "$d" "$e" "$f" "$f" > "tree/d$d/e$e/file-$f.txt"
    done
  done
done
printf 'PAYMENT_GATEWAY_URL=https://pay.example.test\n' >> tree/d17/e4/file-9.txt
