# Charts of the tilejit-bench run in bench/results/cpu-zen3-2026-12-06-d.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen3-2026-12-06-d.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen3-2026-12-06-d.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 24.4433
64 23.4584
EOD
$t0_1 << EOD
64 24.1951
EOD
$t0_2 << EOD
64 41.1865
64 39.9179
EOD
$t0_3 << EOD
64 41.2645
EOD
$t0_4 << EOD
64 20.861
EOD
$t0_5 << EOD
64 36.3721
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
64 5.72749
64 5.74252
EOD
$t1_1 << EOD
64 7.01719
EOD
$t1_2 << EOD
64 9.6199
64 9.52382
EOD
$t1_3 << EOD
64 13.9618
EOD
$t1_4 << EOD
64 5.97759
EOD
$t1_5 << EOD
64 11.5895
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
64 6.20972
64 6.21534
EOD
$t2_1 << EOD
64 8.71766
EOD
$t2_2 << EOD
64 9.43147
64 9.52801
EOD
$t2_3 << EOD
64 16.0286
EOD
$t2_4 << EOD
64 5.83998
EOD
$t2_5 << EOD
64 11.3
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
64 19.6342
64 19.1258
EOD
$t3_1 << EOD
64 21.0912
EOD
$t3_2 << EOD
64 29.9332
64 29.934
EOD
$t3_3 << EOD
64 30.6129
EOD
$t3_4 << EOD
64 20.3921
EOD
$t3_5 << EOD
64 29.1769
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
"cpu/sum: tilejit width-1, 1 thread" 0.989848
"cpu/sum: tilejit width-1, 2 threads" 1.00189
"cpu/sum: tilejit cooperative, 1 thread" 0.889278
"cpu/sum: tilejit cooperative, 2 threads" 0.911173
"cpu/histogram: tilejit width-1, 1 thread" 1.22518
"cpu/histogram: tilejit width-1, 2 threads" 1.45135
"cpu/histogram: tilejit cooperative, 1 thread" 1.04093
"cpu/histogram: tilejit cooperative, 2 threads" 1.21689
"cpu/compact: tilejit width-1, 1 thread" 1.40387
"cpu/compact: tilejit width-1, 2 threads" 1.69948
"cpu/compact: tilejit cooperative, 1 thread" 0.939607
"cpu/compact: tilejit cooperative, 2 threads" 1.18598
"cpu/copy: tilejit width-1, 1 thread" 1.07421
"cpu/copy: tilejit width-1, 2 threads" 1.02271
"cpu/copy: tilejit cooperative, 1 thread" 1.06621
"cpu/copy: tilejit cooperative, 2 threads" 0.974709
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
"ptx/store_doubled_thread_indices" 18.5549
"ptx/multiply_elements" 14.1039
"ptx/row_products" 9.75667
"ptx/replace_rows" 11.732
"ptx/histogram" 13.6656
"ptx/compact_values" 7.27298
"ptx/large" 1.64246
"ptx-first/store_doubled_thread_indices" 8.61936
"ptx-first/multiply_elements" 8.77895
"ptx-first/row_products" 6.47121
"ptx-first/replace_rows" 7.36945
"ptx-first/histogram" 7.8026
"ptx-first/compact_values" 5.42756
"ptx-first/large" 1.55599
"disk/store_doubled_thread_indices" 3.62611
"disk/store_doubled_thread_indices (CPU)" 8.6306
"disk/multiply_elements" 3.74072
"disk/multiply_elements (CPU)" 7.26447
"disk/row_products" 4.37316
"disk/row_products (CPU)" 7.23763
"disk/replace_rows" 3.67163
"disk/replace_rows (CPU)" 9.65971
"disk/histogram" 3.67141
"disk/histogram (CPU)" 7.94628
"disk/compact_values" 4.26414
"disk/compact_values (CPU)" 14.022
"disk/large" 9.51685
"disk/large (CPU)" 34.6602
"source/store_doubled_thread_indices" 20.4475
"source-first/store_doubled_thread_indices" 8.95495
"source/multiply_elements" 14.7039
"source-first/multiply_elements" 7.91772
"source/row_products" 9.54346
"source-first/row_products" 6.95194
"source/replace_rows" 11.472
"source-first/replace_rows" 7.45258
"source/histogram" 13.4849
"source-first/histogram" 7.46571
"source/compact_values" 6.93774
"source-first/compact_values" 5.49658
"source/large" 1.59977
"source-first/large" 1.57824
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
