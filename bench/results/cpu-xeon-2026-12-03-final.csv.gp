# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-03-final.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-03-final.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-03-final.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 28.3126
64 25.2108
EOD
$t0_1 << EOD
64 25.6081
EOD
$t0_2 << EOD
4 34.9317
64 48.6752
EOD
$t0_3 << EOD
64 50.7211
EOD
$t0_4 << EOD
4 27.0654
EOD
$t0_5 << EOD
4 45.162
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
4 3.59944
64 4.1592
EOD
$t1_1 << EOD
64 3.10093
EOD
$t1_2 << EOD
4 6.14745
64 6.2226
EOD
$t1_3 << EOD
64 6.09645
EOD
$t1_4 << EOD
4 1.98284
EOD
$t1_5 << EOD
4 3.7238
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
4 3.70634
64 4.72805
EOD
$t2_1 << EOD
64 4.67626
EOD
$t2_2 << EOD
4 4.58325
64 5.21465
EOD
$t2_3 << EOD
64 8.59637
EOD
$t2_4 << EOD
4 0.912514
EOD
$t2_5 << EOD
4 1.75822
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
4 27.0525
64 16.6692
EOD
$t3_1 << EOD
64 17.1053
EOD
$t3_2 << EOD
4 30.64
64 50.8596
EOD
$t3_3 << EOD
64 49.3524
EOD
$t3_4 << EOD
4 10.8139
EOD
$t3_5 << EOD
4 17.1257
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
"cpu/sum: tilejit width-1, 1 thread" 1.01576
"cpu/sum: tilejit width-1, 2 threads" 1.04203
"cpu/sum: tilejit cooperative, 1 thread" 0.955946
"cpu/sum: tilejit cooperative, 2 threads" 1.29286
"cpu/histogram: tilejit width-1, 1 thread" 0.74556
"cpu/histogram: tilejit width-1, 2 threads" 0.979727
"cpu/histogram: tilejit cooperative, 1 thread" 0.550874
"cpu/histogram: tilejit cooperative, 2 threads" 0.605747
"cpu/compact: tilejit width-1, 1 thread" 0.989045
"cpu/compact: tilejit width-1, 2 threads" 1.6485
"cpu/compact: tilejit cooperative, 1 thread" 0.246204
"cpu/compact: tilejit cooperative, 2 threads" 0.383618
"cpu/copy: tilejit width-1, 1 thread" 1.02616
"cpu/copy: tilejit width-1, 2 threads" 0.970364
"cpu/copy: tilejit cooperative, 1 thread" 0.39974
"cpu/copy: tilejit cooperative, 2 threads" 0.558935
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
"ptx/store_doubled_thread_indices" 14.9134
"ptx/multiply_elements" 12.6065
"ptx/row_products" 8.80251
"ptx/replace_rows" 10.3384
"ptx/histogram" 12.3746
"ptx/compact_values" 6.81861
"ptx/large" 1.65314
"ptx-first/store_doubled_thread_indices" 9.154
"ptx-first/multiply_elements" 8.70224
"ptx-first/row_products" 6.15902
"ptx-first/replace_rows" 8.86256
"ptx-first/histogram" 8.54642
"ptx-first/compact_values" 5.56192
"ptx-first/large" 1.20695
"disk/store_doubled_thread_indices" 2.80863
"disk/store_doubled_thread_indices (CPU)" 8.0753
"disk/multiply_elements" 2.98361
"disk/multiply_elements (CPU)" 5.96434
"disk/row_products" 3.11785
"disk/row_products (CPU)" 7.02389
"disk/replace_rows" 3.01131
"disk/replace_rows (CPU)" 10.2919
"disk/histogram" 2.65726
"disk/histogram (CPU)" 8.67229
"disk/compact_values" 3.53283
"disk/compact_values (CPU)" 12.5512
"disk/large" 6.62581
"disk/large (CPU)" 26.4858
"source/store_doubled_thread_indices" 11.3698
"source-first/store_doubled_thread_indices" 10.814
"source/multiply_elements" 11.8968
"source-first/multiply_elements" 10.6887
"source/row_products" 9.3589
"source-first/row_products" 7.20774
"source/replace_rows" 10.3647
"source-first/replace_rows" 9.70074
"source/histogram" 12.0847
"source-first/histogram" 8.76636
"source/compact_values" 6.73066
"source-first/compact_values" 5.81346
"source/large" 1.80218
"source-first/large" 1.35213
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
