# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-04-night-c.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-04-night-c.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-04-night-c.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 99.1128
64 22.4281
EOD
$t0_1 << EOD
64 26.5985
EOD
$t0_2 << EOD
4 38.9223
64 37.0854
EOD
$t0_3 << EOD
64 42.5663
EOD
$t0_4 << EOD
4 79.8489
EOD
$t0_5 << EOD
4 84.6915
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
4 6.68798
64 6.61726
EOD
$t1_1 << EOD
64 6.02525
EOD
$t1_2 << EOD
4 9.19014
64 10.4257
EOD
$t1_3 << EOD
64 10.0868
EOD
$t1_4 << EOD
4 3.68402
EOD
$t1_5 << EOD
4 7.23819
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
4 8.58426
64 8.41598
EOD
$t2_1 << EOD
64 10.8138
EOD
$t2_2 << EOD
4 10.2263
64 7.04184
EOD
$t2_3 << EOD
64 16.0449
EOD
$t2_4 << EOD
4 7.99154
EOD
$t2_5 << EOD
4 13.9327
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
4 98.1784
64 27.4869
EOD
$t3_1 << EOD
64 28.9268
EOD
$t3_2 << EOD
4 57.95
64 30.0807
EOD
$t3_3 << EOD
64 35.8785
EOD
$t3_4 << EOD
4 80.0738
EOD
$t3_5 << EOD
4 98.2877
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
"cpu/sum: tilejit width-1, 1 thread" 1.18594
"cpu/sum: tilejit width-1, 2 threads" 1.14779
"cpu/sum: tilejit cooperative, 1 thread" 0.805637
"cpu/sum: tilejit cooperative, 2 threads" 2.17591
"cpu/histogram: tilejit width-1, 1 thread" 0.910535
"cpu/histogram: tilejit width-1, 2 threads" 0.967499
"cpu/histogram: tilejit cooperative, 1 thread" 0.550842
"cpu/histogram: tilejit cooperative, 2 threads" 0.787603
"cpu/compact: tilejit width-1, 1 thread" 1.28491
"cpu/compact: tilejit width-1, 2 threads" 2.27851
"cpu/compact: tilejit cooperative, 1 thread" 0.930953
"cpu/compact: tilejit cooperative, 2 threads" 1.36244
"cpu/copy: tilejit width-1, 1 thread" 1.05239
"cpu/copy: tilejit width-1, 2 threads" 1.19274
"cpu/copy: tilejit cooperative, 1 thread" 0.815595
"cpu/copy: tilejit cooperative, 2 threads" 1.69608
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
"ptx/store_doubled_thread_indices" 18.82
"ptx/multiply_elements" 14.0589
"ptx/row_products" 9.29123
"ptx/replace_rows" 11.7156
"ptx/histogram" 14.4555
"ptx/compact_values" 7.52033
"ptx/large" 1.95666
"ptx-first/store_doubled_thread_indices" 6.81277
"ptx-first/multiply_elements" 6.94667
"ptx-first/row_products" 5.30107
"ptx-first/replace_rows" 6.04311
"ptx-first/histogram" 7.77587
"ptx-first/compact_values" 4.83722
"ptx-first/large" 1.56127
"disk/store_doubled_thread_indices" 2.34719
"disk/store_doubled_thread_indices (CPU)" 6.95771
"disk/multiply_elements" 2.53847
"disk/multiply_elements (CPU)" 8.80182
"disk/row_products" 2.95451
"disk/row_products (CPU)" 6.71339
"disk/replace_rows" 2.60597
"disk/replace_rows (CPU)" 8.86137
"disk/histogram" 2.40223
"disk/histogram (CPU)" 7.38103
"disk/compact_values" 2.93798
"disk/compact_values (CPU)" 8.67917
"disk/large" 5.97053
"disk/large (CPU)" 32.2921
"source/store_doubled_thread_indices" 19.1831
"source-first/store_doubled_thread_indices" 6.57193
"source/multiply_elements" 13.619
"source-first/multiply_elements" 6.228
"source/row_products" 8.88309
"source-first/row_products" 5.3182
"source/replace_rows" 11.5655
"source-first/replace_rows" 5.89152
"source/histogram" 14.0089
"source-first/histogram" 7.59106
"source/compact_values" 5.91008
"source-first/compact_values" 4.80669
"source/large" 1.94145
"source-first/large" 1.51868
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
