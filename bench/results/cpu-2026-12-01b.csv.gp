# Charts of the tilejit-bench run in bench/results/cpu-2026-12-01b.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-2026-12-01b.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-2026-12-01b.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 23.0764
64 26.6624
EOD
$t0_1 << EOD
64 27.3746
EOD
$t0_2 << EOD
4 20.3537
64 47.899
EOD
$t0_3 << EOD
64 50.8657
EOD
$t0_4 << EOD
4 0.152117
EOD
$t0_5 << EOD
4 0.30832
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
4 5.86727
64 4.64723
EOD
$t1_1 << EOD
64 2.10773
EOD
$t1_2 << EOD
4 6.56301
64 8.74341
EOD
$t1_3 << EOD
64 4.15072
EOD
$t1_4 << EOD
4 0.182892
EOD
$t1_5 << EOD
4 0.342371
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
4 4.72178
64 4.51137
EOD
$t2_1 << EOD
64 1.58888
EOD
$t2_2 << EOD
4 4.96376
64 7.19959
EOD
$t2_3 << EOD
64 3.24675
EOD
$t2_4 << EOD
4 0.0330224
EOD
$t2_5 << EOD
4 0.0688343
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
4 25.6199
64 24.0272
EOD
$t3_1 << EOD
64 19.3692
EOD
$t3_2 << EOD
4 32.2603
64 49.8571
EOD
$t3_3 << EOD
64 43.0807
EOD
$t3_4 << EOD
4 0.671413
EOD
$t3_5 << EOD
4 1.53683
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
"cpu/sum: tilejit width-1, 1 thread" 1.02671
"cpu/sum: tilejit width-1, 2 threads" 1.06194
"cpu/sum: tilejit cooperative, 1 thread" 0.00659186
"cpu/sum: tilejit cooperative, 2 threads" 0.0151481
"cpu/histogram: tilejit width-1, 1 thread" 0.453545
"cpu/histogram: tilejit width-1, 2 threads" 0.474726
"cpu/histogram: tilejit cooperative, 1 thread" 0.0311716
"cpu/histogram: tilejit cooperative, 2 threads" 0.0521668
"cpu/compact: tilejit width-1, 1 thread" 0.352196
"cpu/compact: tilejit width-1, 2 threads" 0.450964
"cpu/compact: tilejit cooperative, 1 thread" 0.00699362
"cpu/compact: tilejit cooperative, 2 threads" 0.0138674
"cpu/copy: tilejit width-1, 1 thread" 0.806136
"cpu/copy: tilejit width-1, 2 threads" 0.864085
"cpu/copy: tilejit cooperative, 1 thread" 0.0262067
"cpu/copy: tilejit cooperative, 2 threads" 0.0476384
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
"ptx/store_doubled_thread_indices" 9.79218
"ptx/multiply_elements" 6.92748
"ptx/row_products" 4.72187
"ptx/replace_rows" 5.67503
"ptx/histogram" 6.83423
"ptx/compact_values" 4.12575
"ptx/large" 1.44437
"ptx-first/store_doubled_thread_indices" 7.67415
"ptx-first/multiply_elements" 6.15287
"ptx-first/row_products" 4.29076
"ptx-first/replace_rows" 5.1065
"ptx-first/histogram" 6.05234
"ptx-first/compact_values" 3.97798
"ptx-first/large" 1.50163
"disk/store_doubled_thread_indices" 1.57787
"disk/store_doubled_thread_indices (CPU)" 7.23078
"disk/multiply_elements" 2.59629
"disk/multiply_elements (CPU)" 5.95019
"disk/row_products" 2.46422
"disk/row_products (CPU)" 6.09363
"disk/replace_rows" 2.18248
"disk/replace_rows (CPU)" 7.39386
"disk/histogram" 1.94287
"disk/histogram (CPU)" 5.74092
"disk/compact_values" 3.24083
"disk/compact_values (CPU)" 12.1854
"disk/large" 6.22641
"disk/large (CPU)" 36.5498
"source/store_doubled_thread_indices" 8.63327
"source-first/store_doubled_thread_indices" 5.83265
"source/multiply_elements" 7.29097
"source-first/multiply_elements" 6.21126
"source/row_products" 5.07856
"source-first/row_products" 4.29893
"source/replace_rows" 3.80271
"source-first/replace_rows" 4.62709
"source/histogram" 5.33154
"source-first/histogram" 5.19053
"source/compact_values" 3.01387
"source-first/compact_values" 3.04829
"source/large" 1.29883
"source-first/large" 1.61584
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
