#!/bin/bash
# The jar before (base.jar: f2705be's library) and after (rest.jar: the watch's rest) in turn, three pairs.
# J: java 25 with --enable-native-access=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
for i in 1 2 3; do
  for v in base rest; do
    $J -jar $v.jar scale --quick --idle-window=10s > idle-$v-$i.txt 2>&1
  done
done
