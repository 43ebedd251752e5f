# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-04g.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-04g.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-04g.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 30.0844
64 27.7936
EOD
$t0_1 << EOD
64 27.0726
EOD
$t0_2 << EOD
4 45.1576
64 51.6549
EOD
$t0_3 << EOD
64 50.8056
EOD
$t0_4 << EOD
4 28.7746
EOD
$t0_5 << EOD
4 48.2348
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
4 3.53778
64 4.74277
EOD
$t1_1 << EOD
64 4.12661
EOD
$t1_2 << EOD
4 5.37695
64 6.33801
EOD
$t1_3 << EOD
64 5.70219
EOD
$t1_4 << EOD
4 2.51125
EOD
$t1_5 << EOD
4 4.69918
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
4 5.8968
64 4.60934
EOD
$t2_1 << EOD
64 4.81942
EOD
$t2_2 << EOD
4 5.02692
64 5.13093
EOD
$t2_3 << EOD
64 9.07325
EOD
$t2_4 << EOD
4 5.01949
EOD
$t2_5 << EOD
4 5.01607
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
4 27.3542
64 19.7099
EOD
$t3_1 << EOD
64 18.9897
EOD
$t3_2 << EOD
4 34.9562
64 45.915
EOD
$t3_3 << EOD
64 45.2556
EOD
$t3_4 << EOD
4 21.7538
EOD
$t3_5 << EOD
4 33.6358
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
"cpu/sum: tilejit width-1, 1 thread" 0.974057
"cpu/sum: tilejit width-1, 2 threads" 0.983558
"cpu/sum: tilejit cooperative, 1 thread" 0.956464
"cpu/sum: tilejit cooperative, 2 threads" 1.06814
"cpu/histogram: tilejit width-1, 1 thread" 0.870085
"cpu/histogram: tilejit width-1, 2 threads" 0.899682
"cpu/histogram: tilejit cooperative, 1 thread" 0.709838
"cpu/histogram: tilejit cooperative, 2 threads" 0.873949
"cpu/compact: tilejit width-1, 1 thread" 1.04558
"cpu/compact: tilejit width-1, 2 threads" 1.76834
"cpu/compact: tilejit cooperative, 1 thread" 0.851223
"cpu/compact: tilejit cooperative, 2 threads" 0.99784
"cpu/copy: tilejit width-1, 1 thread" 0.963458
"cpu/copy: tilejit width-1, 2 threads" 0.985639
"cpu/copy: tilejit cooperative, 1 thread" 0.795266
"cpu/copy: tilejit cooperative, 2 threads" 0.962227
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
"ptx/store_doubled_thread_indices" 14.9331
"ptx/multiply_elements" 11.7264
"ptx/row_products" 8.50054
"ptx/replace_rows" 10.2743
"ptx/histogram" 11.2691
"ptx/compact_values" 6.74427
"ptx/large" 1.66266
"ptx-first/store_doubled_thread_indices" 8.3643
"ptx-first/multiply_elements" 7.48393
"ptx-first/row_products" 5.23108
"ptx-first/replace_rows" 7.51492
"ptx-first/histogram" 8.9892
"ptx-first/compact_values" 4.24189
"ptx-first/large" 1.47455
"disk/store_doubled_thread_indices" 2.2473
"disk/store_doubled_thread_indices (CPU)" 5.87642
"disk/multiply_elements" 1.82034
"disk/multiply_elements (CPU)" 7.04956
"disk/row_products" 3.19451
"disk/row_products (CPU)" 6.29173
"disk/replace_rows" 2.97631
"disk/replace_rows (CPU)" 8.89061
"disk/histogram" 1.96396
"disk/histogram (CPU)" 9.56397
"disk/compact_values" 4.52197
"disk/compact_values (CPU)" 10.6098
"disk/large" 8.07359
"disk/large (CPU)" 34.9252
"source/store_doubled_thread_indices" 12.9882
"source-first/store_doubled_thread_indices" 7.29791
"source/multiply_elements" 10.8373
"source-first/multiply_elements" 6.04392
"source/row_products" 8.45812
"source-first/row_products" 6.0258
"source/replace_rows" 9.88685
"source-first/replace_rows" 8.35617
"source/histogram" 10.4595
"source-first/histogram" 9.29417
"source/compact_values" 6.30621
"source-first/compact_values" 4.44728
"source/large" 1.61145
"source-first/large" 1.38882
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
