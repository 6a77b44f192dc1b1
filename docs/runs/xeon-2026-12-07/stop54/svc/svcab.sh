#!/bin/bash
# The jar before (base.jar: f2705be's library) and after (rest.jar: the watch's rest) in turn, two pairs.
# J: java 25 with --enable-native-access=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
for i in 1 2; do
  for v in base rest; do
    $J -jar $v.jar service --modes=reactor,watcher --clients=16,512 --rounds=2 --prewarm=2s --warmup=3s --window=6s > svc-$v-$i.txt 2>&1
  done
done
