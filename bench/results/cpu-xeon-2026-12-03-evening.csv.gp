# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-03-evening.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-03-evening.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-03-evening.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 28.9088
64 26.9145
EOD
$t0_1 << EOD
64 27.7637
EOD
$t0_2 << EOD
4 34.5885
64 51.6842
EOD
$t0_3 << EOD
64 53.5004
EOD
$t0_4 << EOD
4 23.2868
EOD
$t0_5 << EOD
4 39.0487
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
4 6.90243
64 4.92348
EOD
$t1_1 << EOD
64 4.21727
EOD
$t1_2 << EOD
4 6.05991
64 7.29831
EOD
$t1_3 << EOD
64 6.74249
EOD
$t1_4 << EOD
4 3.00958
EOD
$t1_5 << EOD
4 3.08033
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
4 5.87303
64 4.89677
EOD
$t2_1 << EOD
64 5.24391
EOD
$t2_2 << EOD
4 5.52753
64 8.15146
EOD
$t2_3 << EOD
64 11.8342
EOD
$t2_4 << EOD
4 1.10134
EOD
$t2_5 << EOD
4 1.78366
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
4 27.9983
64 21.4933
EOD
$t3_1 << EOD
64 20.8881
EOD
$t3_2 << EOD
4 35.26
64 49.0362
EOD
$t3_3 << EOD
64 49.5104
EOD
$t3_4 << EOD
4 10.7893
EOD
$t3_5 << EOD
4 18.3504
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
"cpu/sum: tilejit width-1, 1 thread" 1.03155
"cpu/sum: tilejit width-1, 2 threads" 1.03514
"cpu/sum: tilejit cooperative, 1 thread" 0.805527
"cpu/sum: tilejit cooperative, 2 threads" 1.12895
"cpu/histogram: tilejit width-1, 1 thread" 0.856563
"cpu/histogram: tilejit width-1, 2 threads" 0.923843
"cpu/histogram: tilejit cooperative, 1 thread" 0.436018
"cpu/histogram: tilejit cooperative, 2 threads" 0.508313
"cpu/compact: tilejit width-1, 1 thread" 1.07089
"cpu/compact: tilejit width-1, 2 threads" 1.45179
"cpu/compact: tilejit cooperative, 1 thread" 0.187525
"cpu/compact: tilejit cooperative, 2 threads" 0.322686
"cpu/copy: tilejit width-1, 1 thread" 0.97184
"cpu/copy: tilejit width-1, 2 threads" 1.00967
"cpu/copy: tilejit cooperative, 1 thread" 0.385357
"cpu/copy: tilejit cooperative, 2 threads" 0.52043
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
"ptx/store_doubled_thread_indices" 14.7791
"ptx/multiply_elements" 12.192
"ptx/row_products" 8.3118
"ptx/replace_rows" 10.9198
"ptx/histogram" 11.3063
"ptx/compact_values" 7.12183
"ptx/large" 1.64195
"ptx-first/store_doubled_thread_indices" 6.21691
"ptx-first/multiply_elements" 8.5596
"ptx-first/row_products" 4.32591
"ptx-first/replace_rows" 6.38485
"ptx-first/histogram" 8.49092
"ptx-first/compact_values" 5.34545
"ptx-first/large" 1.29469
"disk/store_doubled_thread_indices" 4.04828
"disk/store_doubled_thread_indices (CPU)" 9.60205
"disk/multiply_elements" 3.29127
"disk/multiply_elements (CPU)" 6.76075
"disk/row_products" 5.14789
"disk/row_products (CPU)" 7.4349
"disk/replace_rows" 4.38483
"disk/replace_rows (CPU)" 9.7532
"disk/histogram" 2.91691
"disk/histogram (CPU)" 8.95955
"disk/compact_values" 3.6741
"disk/compact_values (CPU)" 9.77005
"disk/large" 8.66034
"disk/large (CPU)" 34.7017
"source/store_doubled_thread_indices" 15.0249
"source-first/store_doubled_thread_indices" 11.3632
"source/multiply_elements" 11.9985
"source-first/multiply_elements" 10.6774
"source/row_products" 8.18993
"source-first/row_products" 6.90712
"source/replace_rows" 14.4479
"source-first/replace_rows" 10.9474
"source/histogram" 11.4317
"source-first/histogram" 9.88335
"source/compact_values" 9.92217
"source-first/compact_values" 5.94104
"source/large" 1.78683
"source-first/large" 1.61514
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
