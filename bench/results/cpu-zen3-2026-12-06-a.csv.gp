# Charts of the tilejit-bench run in bench/results/cpu-zen3-2026-12-06-a.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen3-2026-12-06-a.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen3-2026-12-06-a.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 16.6625
64 19.4184
EOD
$t0_1 << EOD
64 15.8885
EOD
$t0_2 << EOD
64 24.1728
64 29.1681
EOD
$t0_3 << EOD
64 23.0115
EOD
$t0_4 << EOD
64 17.1381
EOD
$t0_5 << EOD
64 27.5481
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
64 5.4308
64 5.60012
EOD
$t1_1 << EOD
64 6.79713
EOD
$t1_2 << EOD
64 9.3803
64 9.27266
EOD
$t1_3 << EOD
64 12.6577
EOD
$t1_4 << EOD
64 5.85471
EOD
$t1_5 << EOD
64 10.4743
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
64 5.93683
64 5.86958
EOD
$t2_1 << EOD
64 7.14432
EOD
$t2_2 << EOD
64 8.47246
64 8.38541
EOD
$t2_3 << EOD
64 12.2508
EOD
$t2_4 << EOD
64 4.64081
EOD
$t2_5 << EOD
64 8.49531
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
64 17.9518
64 16.577
EOD
$t3_1 << EOD
64 19.0661
EOD
$t3_2 << EOD
64 25.276
64 21.4396
EOD
$t3_3 << EOD
64 26.3104
EOD
$t3_4 << EOD
64 16.4581
EOD
$t3_5 << EOD
64 19.9312
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
"cpu/sum: tilejit width-1, 1 thread" 0.953551
"cpu/sum: tilejit width-1, 2 threads" 0.951961
"cpu/sum: tilejit cooperative, 1 thread" 0.882573
"cpu/sum: tilejit cooperative, 2 threads" 0.944458
"cpu/histogram: tilejit width-1, 1 thread" 1.25159
"cpu/histogram: tilejit width-1, 2 threads" 1.34939
"cpu/histogram: tilejit cooperative, 1 thread" 1.04546
"cpu/histogram: tilejit cooperative, 2 threads" 1.12959
"cpu/compact: tilejit width-1, 1 thread" 1.20339
"cpu/compact: tilejit width-1, 2 threads" 1.44595
"cpu/compact: tilejit cooperative, 1 thread" 0.790654
"cpu/compact: tilejit cooperative, 2 threads" 1.01311
"cpu/copy: tilejit width-1, 1 thread" 1.06207
"cpu/copy: tilejit width-1, 2 threads" 1.04092
"cpu/copy: tilejit cooperative, 1 thread" 0.99283
"cpu/copy: tilejit cooperative, 2 threads" 0.929643
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
"ptx/store_doubled_thread_indices" 17.6932
"ptx/multiply_elements" 13.9969
"ptx/row_products" 9.86551
"ptx/replace_rows" 11.8001
"ptx/histogram" 13.1377
"ptx/compact_values" 7.58005
"ptx/large" 1.61514
"ptx-first/store_doubled_thread_indices" 7.92424
"ptx-first/multiply_elements" 7.66922
"ptx-first/row_products" 6.04606
"ptx-first/replace_rows" 6.80796
"ptx-first/histogram" 7.07577
"ptx-first/compact_values" 5.534
"ptx-first/large" 1.64049
"disk/store_doubled_thread_indices" 2.23453
"disk/store_doubled_thread_indices (CPU)" 8.15976
"disk/multiply_elements" 2.45576
"disk/multiply_elements (CPU)" 6.98074
"disk/row_products" 2.84063
"disk/row_products (CPU)" 7.4829
"disk/replace_rows" 2.58845
"disk/replace_rows (CPU)" 9.33705
"disk/histogram" 2.58152
"disk/histogram (CPU)" 8.08199
"disk/compact_values" 3.03184
"disk/compact_values (CPU)" 13.9802
"disk/large" 5.77439
"disk/large (CPU)" 33.8704
"source/store_doubled_thread_indices" 17.8282
"source-first/store_doubled_thread_indices" 7.66826
"source/multiply_elements" 13.3501
"source-first/multiply_elements" 7.02825
"source/row_products" 9.74363
"source-first/row_products" 6.01493
"source/replace_rows" 11.4786
"source-first/replace_rows" 6.87555
"source/histogram" 12.7735
"source-first/histogram" 6.91872
"source/compact_values" 7.05987
"source-first/compact_values" 5.48885
"source/large" 1.51499
"source-first/large" 1.56008
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
