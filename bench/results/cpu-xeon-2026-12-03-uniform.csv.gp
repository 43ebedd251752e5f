# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-03-uniform.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-03-uniform.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-03-uniform.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 29.6574
64 25.69
EOD
$t0_1 << EOD
64 25.0506
EOD
$t0_2 << EOD
4 33.0392
64 27.0801
EOD
$t0_3 << EOD
64 27.6798
EOD
$t0_4 << EOD
4 9.86966
EOD
$t0_5 << EOD
4 16.4983
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
4 6.77494
64 4.60199
EOD
$t1_1 << EOD
64 4.04206
EOD
$t1_2 << EOD
4 7.84408
64 7.88056
EOD
$t1_3 << EOD
64 7.00869
EOD
$t1_4 << EOD
4 3.04123
EOD
$t1_5 << EOD
4 3.18848
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
4 3.33788
64 4.39502
EOD
$t2_1 << EOD
64 4.15238
EOD
$t2_2 << EOD
4 5.48917
64 5.5214
EOD
$t2_3 << EOD
64 8.47041
EOD
$t2_4 << EOD
4 0.747715
EOD
$t2_5 << EOD
4 1.64617
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
4 27.6291
64 17.024
EOD
$t3_1 << EOD
64 16.3125
EOD
$t3_2 << EOD
4 35.81
64 47.8387
EOD
$t3_3 << EOD
64 44.2399
EOD
$t3_4 << EOD
4 7.71273
EOD
$t3_5 << EOD
4 13.1405
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
"cpu/sum: tilejit width-1, 1 thread" 0.975114
"cpu/sum: tilejit width-1, 2 threads" 1.02215
"cpu/sum: tilejit cooperative, 1 thread" 0.332789
"cpu/sum: tilejit cooperative, 2 threads" 0.499356
"cpu/histogram: tilejit width-1, 1 thread" 0.878328
"cpu/histogram: tilejit width-1, 2 threads" 0.889364
"cpu/histogram: tilejit cooperative, 1 thread" 0.448894
"cpu/histogram: tilejit cooperative, 2 threads" 0.406482
"cpu/compact: tilejit width-1, 1 thread" 0.944792
"cpu/compact: tilejit width-1, 2 threads" 1.5341
"cpu/compact: tilejit cooperative, 1 thread" 0.224009
"cpu/compact: tilejit cooperative, 2 threads" 0.299895
"cpu/copy: tilejit width-1, 1 thread" 0.958208
"cpu/copy: tilejit width-1, 2 threads" 0.924773
"cpu/copy: tilejit cooperative, 1 thread" 0.279152
"cpu/copy: tilejit cooperative, 2 threads" 0.36695
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
"ptx/store_doubled_thread_indices" 14.1158
"ptx/multiply_elements" 11.928
"ptx/row_products" 8.10013
"ptx/replace_rows" 10.2818
"ptx/histogram" 11.7695
"ptx/compact_values" 6.96134
"ptx/large" 1.81264
"ptx-first/store_doubled_thread_indices" 7.21387
"ptx-first/multiply_elements" 6.82798
"ptx-first/row_products" 7.18524
"ptx-first/replace_rows" 8.80275
"ptx-first/histogram" 6.81378
"ptx-first/compact_values" 4.86702
"ptx-first/large" 1.53069
"disk/store_doubled_thread_indices" 3.25281
"disk/store_doubled_thread_indices (CPU)" 6.22875
"disk/multiply_elements" 2.99257
"disk/multiply_elements (CPU)" 6.84212
"disk/row_products" 3.36205
"disk/row_products (CPU)" 7.25062
"disk/replace_rows" 2.25702
"disk/replace_rows (CPU)" 6.99323
"disk/histogram" 1.8209
"disk/histogram (CPU)" 6.56604
"disk/compact_values" 3.27572
"disk/compact_values (CPU)" 7.17818
"disk/large" 6.88482
"disk/large (CPU)" 28.6032
"source/store_doubled_thread_indices" 10.3197
"source-first/store_doubled_thread_indices" 8.54397
"source/multiply_elements" 8.65498
"source-first/multiply_elements" 8.09235
"source/row_products" 5.3644
"source-first/row_products" 7.75276
"source/replace_rows" 9.38325
"source-first/replace_rows" 9.49769
"source/histogram" 11.2053
"source-first/histogram" 7.0716
"source/compact_values" 6.40598
"source-first/compact_values" 4.056
"source/large" 1.38906
"source-first/large" 1.63839
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
