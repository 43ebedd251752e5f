# Charts of the tilejit-bench run in bench/results/cpu-zen3-2026-12-05-night-a.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen3-2026-12-05-night-a.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen3-2026-12-05-night-a.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 19.7191
64 19.035
EOD
$t0_1 << EOD
64 19.1469
EOD
$t0_2 << EOD
64 31.1224
64 28.1255
EOD
$t0_3 << EOD
64 27.0791
EOD
$t0_4 << EOD
64 15.7954
EOD
$t0_5 << EOD
64 25.9808
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
64 5.37938
64 5.60568
EOD
$t1_1 << EOD
64 5.0508
EOD
$t1_2 << EOD
64 9.41239
64 9.50098
EOD
$t1_3 << EOD
64 10.022
EOD
$t1_4 << EOD
64 4.74142
EOD
$t1_5 << EOD
64 9.46418
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
64 6.11979
64 6.00095
EOD
$t2_1 << EOD
64 7.75818
EOD
$t2_2 << EOD
64 8.94382
64 8.85824
EOD
$t2_3 << EOD
64 13.5574
EOD
$t2_4 << EOD
64 4.84763
EOD
$t2_5 << EOD
64 9.36287
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
64 17.0256
64 16.6425
EOD
$t3_1 << EOD
64 18.1181
EOD
$t3_2 << EOD
64 23.9078
64 23.361
EOD
$t3_3 << EOD
64 25.2233
EOD
$t3_4 << EOD
64 16.1614
EOD
$t3_5 << EOD
64 21.9574
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
"cpu/sum: tilejit width-1, 1 thread" 0.970979
"cpu/sum: tilejit width-1, 2 threads" 0.870086
"cpu/sum: tilejit cooperative, 1 thread" 0.829808
"cpu/sum: tilejit cooperative, 2 threads" 0.923746
"cpu/histogram: tilejit width-1, 1 thread" 0.938918
"cpu/histogram: tilejit width-1, 2 threads" 1.06476
"cpu/histogram: tilejit cooperative, 1 thread" 0.845825
"cpu/histogram: tilejit cooperative, 2 threads" 0.996126
"cpu/compact: tilejit width-1, 1 thread" 1.26772
"cpu/compact: tilejit width-1, 2 threads" 1.51584
"cpu/compact: tilejit cooperative, 1 thread" 0.80781
"cpu/compact: tilejit cooperative, 2 threads" 1.05697
"cpu/copy: tilejit width-1, 1 thread" 1.06416
"cpu/copy: tilejit width-1, 2 threads" 1.05502
"cpu/copy: tilejit cooperative, 1 thread" 0.971091
"cpu/copy: tilejit cooperative, 2 threads" 0.939918
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
"ptx/store_doubled_thread_indices" 16.9363
"ptx/multiply_elements" 13.1767
"ptx/row_products" 9.59042
"ptx/replace_rows" 11.7359
"ptx/histogram" 13.6068
"ptx/compact_values" 7.12339
"ptx/large" 1.76938
"ptx-first/store_doubled_thread_indices" 8.02047
"ptx-first/multiply_elements" 8.65195
"ptx-first/row_products" 6.36964
"ptx-first/replace_rows" 6.81202
"ptx-first/histogram" 7.13433
"ptx-first/compact_values" 5.52264
"ptx-first/large" 1.56421
"disk/store_doubled_thread_indices" 3.08667
"disk/store_doubled_thread_indices (CPU)" 9.81516
"disk/multiply_elements" 2.88908
"disk/multiply_elements (CPU)" 7.31545
"disk/row_products" 2.99564
"disk/row_products (CPU)" 7.40807
"disk/replace_rows" 2.66731
"disk/replace_rows (CPU)" 9.27224
"disk/histogram" 2.9577
"disk/histogram (CPU)" 8.20297
"disk/compact_values" 3.43954
"disk/compact_values (CPU)" 12.7604
"disk/large" 6.03526
"disk/large (CPU)" 31.9429
"source/store_doubled_thread_indices" 18.3546
"source-first/store_doubled_thread_indices" 7.94585
"source/multiply_elements" 13.9919
"source-first/multiply_elements" 7.92505
"source/row_products" 10.8077
"source-first/row_products" 5.96317
"source/replace_rows" 7.79663
"source-first/replace_rows" 6.44847
"source/histogram" 11.9982
"source-first/histogram" 7.69289
"source/compact_values" 6.79697
"source-first/compact_values" 5.38156
"source/large" 1.78765
"source-first/large" 1.56567
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
