# Charts of the tilejit-bench run in cpu-amd-2026-12-02-full.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh cpu-amd-2026-12-02-full.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" cpu-amd-2026-12-02-full.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 27.7356
64 25.1609
EOD
$t0_1 << EOD
64 25.7187
EOD
$t0_2 << EOD
4 18.0469
64 36.0396
EOD
$t0_3 << EOD
64 38.3736
EOD
$t0_4 << EOD
4 0.168373
EOD
$t0_5 << EOD
4 0.327221
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
4 6.66957
64 6.42053
EOD
$t1_1 << EOD
64 5.89534
EOD
$t1_2 << EOD
4 9.80315
64 11.4548
EOD
$t1_3 << EOD
64 11.645
EOD
$t1_4 << EOD
4 3.07233
EOD
$t1_5 << EOD
4 5.73326
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
4 6.615
64 8.35127
EOD
$t2_1 << EOD
64 5.30243
EOD
$t2_2 << EOD
4 5.63025
64 9.10313
EOD
$t2_3 << EOD
64 9.55237
EOD
$t2_4 << EOD
4 0.0417616
EOD
$t2_5 << EOD
4 0.0765056
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
4 25.6547
64 24.3235
EOD
$t3_1 << EOD
64 29.2896
EOD
$t3_2 << EOD
4 27.8939
64 27.1829
EOD
$t3_3 << EOD
64 29.7587
EOD
$t3_4 << EOD
4 0.742581
EOD
$t3_5 << EOD
4 1.43087
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
"cpu/sum: tilejit width-1, 1 thread" 1.02217
"cpu/sum: tilejit width-1, 2 threads" 1.06476
"cpu/sum: tilejit cooperative, 1 thread" 0.00607065
"cpu/sum: tilejit cooperative, 2 threads" 0.0181317
"cpu/histogram: tilejit width-1, 1 thread" 0.918202
"cpu/histogram: tilejit width-1, 2 threads" 1.0166
"cpu/histogram: tilejit cooperative, 1 thread" 0.460648
"cpu/histogram: tilejit cooperative, 2 threads" 0.584838
"cpu/compact: tilejit width-1, 1 thread" 0.634925
"cpu/compact: tilejit width-1, 2 threads" 1.04935
"cpu/compact: tilejit cooperative, 1 thread" 0.00631316
"cpu/compact: tilejit cooperative, 2 threads" 0.0135883
"cpu/copy: tilejit width-1, 1 thread" 1.20417
"cpu/copy: tilejit width-1, 2 threads" 1.09476
"cpu/copy: tilejit cooperative, 1 thread" 0.0289452
"cpu/copy: tilejit cooperative, 2 threads" 0.0512969
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
"ptx/store_doubled_thread_indices" 10.1738
"ptx/multiply_elements" 8.64839
"ptx/row_products" 6.68752
"ptx/replace_rows" 8.49576
"ptx/histogram" 8.79204
"ptx/compact_values" 5.68736
"ptx/large" 1.64357
"ptx-first/store_doubled_thread_indices" 6.86732
"ptx-first/multiply_elements" 6.78259
"ptx-first/row_products" 5.18855
"ptx-first/replace_rows" 4.49715
"ptx-first/histogram" 6.34971
"ptx-first/compact_values" 4.55726
"ptx-first/large" 1.49118
"disk/store_doubled_thread_indices" 1.80801
"disk/store_doubled_thread_indices (CPU)" 5.54005
"disk/multiply_elements" 2.50257
"disk/multiply_elements (CPU)" 6.18525
"disk/row_products" 2.72946
"disk/row_products (CPU)" 7.788
"disk/replace_rows" 3.14082
"disk/replace_rows (CPU)" 8.68317
"disk/histogram" 2.9766
"disk/histogram (CPU)" 7.5896
"disk/compact_values" 4.17778
"disk/compact_values (CPU)" 15.3823
"disk/large" 8.07101
"disk/large (CPU)" 49.4111
"source/store_doubled_thread_indices" 20.1348
"source-first/store_doubled_thread_indices" 6.91431
"source/multiply_elements" 12.8954
"source-first/multiply_elements" 6.80539
"source/row_products" 8.92142
"source-first/row_products" 4.77013
"source/replace_rows" 11.9312
"source-first/replace_rows" 4.66573
"source/histogram" 12.4888
"source-first/histogram" 8.48238
"source/compact_values" 6.96453
"source-first/compact_values" 6.39652
"source/large" 1.28212
"source-first/large" 1.54055
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
