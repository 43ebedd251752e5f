# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-04-evening.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-04-evening.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-04-evening.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 99.4429
64 24.6067
EOD
$t0_1 << EOD
64 27.1511
EOD
$t0_2 << EOD
4 41.1237
64 40.2458
EOD
$t0_3 << EOD
64 45.6427
EOD
$t0_4 << EOD
4 57.8696
EOD
$t0_5 << EOD
4 78.7522
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
4 6.58156
64 6.59904
EOD
$t1_1 << EOD
64 6.03549
EOD
$t1_2 << EOD
4 9.5647
64 11.5037
EOD
$t1_3 << EOD
64 11.8701
EOD
$t1_4 << EOD
4 5.58101
EOD
$t1_5 << EOD
4 10.5604
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
4 8.58303
64 8.40503
EOD
$t2_1 << EOD
64 10.6831
EOD
$t2_2 << EOD
4 10.992
64 10.8496
EOD
$t2_3 << EOD
64 21.4228
EOD
$t2_4 << EOD
4 6.18258
EOD
$t2_5 << EOD
4 11.6367
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
4 97.6288
64 28.7877
EOD
$t3_1 << EOD
64 29.7118
EOD
$t3_2 << EOD
4 68.0264
64 35.3203
EOD
$t3_3 << EOD
64 39.7429
EOD
$t3_4 << EOD
4 79.9166
EOD
$t3_5 << EOD
4 112.749
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
"cpu/sum: tilejit width-1, 1 thread" 1.1034
"cpu/sum: tilejit width-1, 2 threads" 1.1341
"cpu/sum: tilejit cooperative, 1 thread" 0.581938
"cpu/sum: tilejit cooperative, 2 threads" 1.91501
"cpu/histogram: tilejit width-1, 1 thread" 0.914601
"cpu/histogram: tilejit width-1, 2 threads" 1.03185
"cpu/histogram: tilejit cooperative, 1 thread" 0.847977
"cpu/histogram: tilejit cooperative, 2 threads" 1.1041
"cpu/compact: tilejit width-1, 1 thread" 1.27103
"cpu/compact: tilejit width-1, 2 threads" 1.97453
"cpu/compact: tilejit cooperative, 1 thread" 0.720326
"cpu/compact: tilejit cooperative, 2 threads" 1.05866
"cpu/copy: tilejit width-1, 1 thread" 1.0321
"cpu/copy: tilejit width-1, 2 threads" 1.12521
"cpu/copy: tilejit cooperative, 1 thread" 0.818576
"cpu/copy: tilejit cooperative, 2 threads" 1.65744
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
"ptx/store_doubled_thread_indices" 17.0671
"ptx/multiply_elements" 13.5658
"ptx/row_products" 8.9837
"ptx/replace_rows" 11.212
"ptx/histogram" 13.3819
"ptx/compact_values" 7.5309
"ptx/large" 1.64013
"ptx-first/store_doubled_thread_indices" 6.9378
"ptx-first/multiply_elements" 6.72842
"ptx-first/row_products" 5.08744
"ptx-first/replace_rows" 5.87175
"ptx-first/histogram" 6.34256
"ptx-first/compact_values" 4.59079
"ptx-first/large" 1.61903
"disk/store_doubled_thread_indices" 2.2073
"disk/store_doubled_thread_indices (CPU)" 6.85317
"disk/multiply_elements" 2.54136
"disk/multiply_elements (CPU)" 8.51993
"disk/row_products" 3.20739
"disk/row_products (CPU)" 6.96324
"disk/replace_rows" 2.7369
"disk/replace_rows (CPU)" 9.09561
"disk/histogram" 2.67528
"disk/histogram (CPU)" 8.16386
"disk/compact_values" 3.40653
"disk/compact_values (CPU)" 8.91324
"disk/large" 5.82875
"disk/large (CPU)" 35.2484
"source/store_doubled_thread_indices" 17.8112
"source-first/store_doubled_thread_indices" 7.16856
"source/multiply_elements" 13.6923
"source-first/multiply_elements" 7.5585
"source/row_products" 9.07421
"source-first/row_products" 5.55126
"source/replace_rows" 10.9571
"source-first/replace_rows" 6.40663
"source/histogram" 13.1092
"source-first/histogram" 6.18529
"source/compact_values" 7.07038
"source-first/compact_values" 4.70794
"source/large" 1.54668
"source-first/large" 1.57172
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
