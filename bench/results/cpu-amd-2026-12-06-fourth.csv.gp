# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-06-fourth.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-06-fourth.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-06-fourth.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 25.2003
64 24.3006
EOD
$t0_1 << EOD
64 24.5344
EOD
$t0_2 << EOD
64 41.9819
64 38.2698
EOD
$t0_3 << EOD
64 41.2795
EOD
$t0_4 << EOD
64 21.3855
EOD
$t0_5 << EOD
64 35.1264
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
64 5.74605
64 5.76746
EOD
$t1_1 << EOD
64 7.02481
EOD
$t1_2 << EOD
64 9.62091
64 9.59647
EOD
$t1_3 << EOD
64 13.8878
EOD
$t1_4 << EOD
64 6.08457
EOD
$t1_5 << EOD
64 12.0768
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
64 6.24314
64 6.24025
EOD
$t2_1 << EOD
64 9.49536
EOD
$t2_2 << EOD
64 9.73762
64 9.64853
EOD
$t2_3 << EOD
64 17.6406
EOD
$t2_4 << EOD
64 5.9578
EOD
$t2_5 << EOD
64 11.4377
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
64 20.5488
64 19.1783
EOD
$t3_1 << EOD
64 22.0027
EOD
$t3_2 << EOD
64 29.3807
64 29.7502
EOD
$t3_3 << EOD
64 29.9295
EOD
$t3_4 << EOD
64 18.5675
EOD
$t3_5 << EOD
64 29.4617
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
"cpu/sum: tilejit width-1, 1 thread" 0.973575
"cpu/sum: tilejit width-1, 2 threads" 0.983268
"cpu/sum: tilejit cooperative, 1 thread" 0.88004
"cpu/sum: tilejit cooperative, 2 threads" 0.917862
"cpu/histogram: tilejit width-1, 1 thread" 1.22255
"cpu/histogram: tilejit width-1, 2 threads" 1.44351
"cpu/histogram: tilejit cooperative, 1 thread" 1.05498
"cpu/histogram: tilejit cooperative, 2 threads" 1.25847
"cpu/compact: tilejit width-1, 1 thread" 1.52093
"cpu/compact: tilejit width-1, 2 threads" 1.81159
"cpu/compact: tilejit cooperative, 1 thread" 0.954737
"cpu/compact: tilejit cooperative, 2 threads" 1.18544
"cpu/copy: tilejit width-1, 1 thread" 1.07075
"cpu/copy: tilejit width-1, 2 threads" 1.01868
"cpu/copy: tilejit cooperative, 1 thread" 0.96815
"cpu/copy: tilejit cooperative, 2 threads" 0.990304
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
"ptx/store_doubled_thread_indices" 16.7089
"ptx/multiply_elements" 13.6165
"ptx/row_products" 9.3727
"ptx/replace_rows" 11.5338
"ptx/histogram" 13.0016
"ptx/compact_values" 7.16047
"ptx/large" 1.60224
"ptx-first/store_doubled_thread_indices" 9.36846
"ptx-first/multiply_elements" 7.87321
"ptx-first/row_products" 6.59747
"ptx-first/replace_rows" 6.95817
"ptx-first/histogram" 7.66077
"ptx-first/compact_values" 5.3346
"ptx-first/large" 1.59309
"disk/store_doubled_thread_indices" 4.07769
"disk/store_doubled_thread_indices (CPU)" 7.99893
"disk/multiply_elements" 4.15346
"disk/multiply_elements (CPU)" 6.81446
"disk/row_products" 4.08693
"disk/row_products (CPU)" 7.05878
"disk/replace_rows" 4.23251
"disk/replace_rows (CPU)" 9.66497
"disk/histogram" 4.05125
"disk/histogram (CPU)" 8.85148
"disk/compact_values" 4.56849
"disk/compact_values (CPU)" 14.7926
"disk/large" 8.97346
"disk/large (CPU)" 34.4871
"source/store_doubled_thread_indices" 19.4779
"source-first/store_doubled_thread_indices" 9.37896
"source/multiply_elements" 14.3975
"source-first/multiply_elements" 8.13961
"source/row_products" 10.7891
"source-first/row_products" 6.69911
"source/replace_rows" 12.0534
"source-first/replace_rows" 7.74152
"source/histogram" 12.9059
"source-first/histogram" 7.64357
"source/compact_values" 7.44123
"source-first/compact_values" 5.4479
"source/large" 1.86823
"source-first/large" 1.53984
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
