# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-02-evening.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-02-evening.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-02-evening.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 43.0117
64 25.451
EOD
$t0_1 << EOD
64 24.9291
EOD
$t0_2 << EOD
4 18.1494
64 62.7266
EOD
$t0_3 << EOD
64 58.4396
EOD
$t0_4 << EOD
4 0.184738
EOD
$t0_5 << EOD
4 0.163797
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
4 5.40953
64 5.91585
EOD
$t1_1 << EOD
64 5.98411
EOD
$t1_2 << EOD
4 9.76034
64 11.3447
EOD
$t1_3 << EOD
64 11.5574
EOD
$t1_4 << EOD
4 2.36501
EOD
$t1_5 << EOD
4 4.34755
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
4 8.49824
64 8.36063
EOD
$t2_1 << EOD
64 10.6485
EOD
$t2_2 << EOD
4 7.53926
64 10.4207
EOD
$t2_3 << EOD
64 19.1691
EOD
$t2_4 << EOD
4 0.044734
EOD
$t2_5 << EOD
4 0.0869262
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
4 54.2021
64 26.1419
EOD
$t3_1 << EOD
64 30.1508
EOD
$t3_2 << EOD
4 45.2835
64 33.4537
EOD
$t3_3 << EOD
64 36.5749
EOD
$t3_4 << EOD
4 0.954618
EOD
$t3_5 << EOD
4 1.75521
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 0.979496
"cpu/sum: tilejit width-1, 2 threads" 0.931656
"cpu/sum: tilejit cooperative, 1 thread" 0.00429507
"cpu/sum: tilejit cooperative, 2 threads" 0.00902495
"cpu/histogram: tilejit width-1, 1 thread" 1.01154
"cpu/histogram: tilejit width-1, 2 threads" 1.01875
"cpu/histogram: tilejit cooperative, 1 thread" 0.437192
"cpu/histogram: tilejit cooperative, 2 threads" 0.44543
"cpu/compact: tilejit width-1, 1 thread" 1.27364
"cpu/compact: tilejit width-1, 2 threads" 1.83952
"cpu/compact: tilejit cooperative, 1 thread" 0.00526392
"cpu/compact: tilejit cooperative, 2 threads" 0.0115298
"cpu/copy: tilejit width-1, 1 thread" 1.15335
"cpu/copy: tilejit width-1, 2 threads" 1.0933
"cpu/copy: tilejit cooperative, 1 thread" 0.0176122
"cpu/copy: tilejit cooperative, 2 threads" 0.0387604
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 10.7489
"ptx/multiply_elements" 9.08125
"ptx/row_products" 6.66066
"ptx/replace_rows" 8.21912
"ptx/histogram" 9.31349
"ptx/compact_values" 5.99861
"ptx/large" 1.64288
"ptx-first/store_doubled_thread_indices" 6.86831
"ptx-first/multiply_elements" 6.69393
"ptx-first/row_products" 5.28961
"ptx-first/replace_rows" 5.95343
"ptx-first/histogram" 6.28451
"ptx-first/compact_values" 4.66369
"ptx-first/large" 1.5127
"disk/store_doubled_thread_indices" 2.30343
"disk/store_doubled_thread_indices (CPU)" 7.22485
"disk/multiply_elements" 2.51001
"disk/multiply_elements (CPU)" 8.23169
"disk/row_products" 3.05895
"disk/row_products (CPU)" 6.86141
"disk/replace_rows" 2.6763
"disk/replace_rows (CPU)" 8.56789
"disk/histogram" 2.41407
"disk/histogram (CPU)" 7.19929
"disk/compact_values" 3.10161
"disk/compact_values (CPU)" 8.81398
"disk/large" 5.5518
"disk/large (CPU)" 29.9635
"source/store_doubled_thread_indices" 18.5285
"source-first/store_doubled_thread_indices" 6.47712
"source/multiply_elements" 13.1313
"source-first/multiply_elements" 6.32858
"source/row_products" 8.83294
"source-first/row_products" 5.19879
"source/replace_rows" 11.4706
"source-first/replace_rows" 5.84766
"source/histogram" 13.1467
"source-first/histogram" 6.26429
"source/compact_values" 7.4549
"source-first/compact_values" 4.53419
"source/large" 1.5676
"source-first/large" 1.47234
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
